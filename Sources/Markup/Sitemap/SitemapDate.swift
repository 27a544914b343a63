import Foundation

/// The dates sitemaps give (`lastmod`, RSS `pubDate`, Atom `updated`), as seconds since 1970.
///
/// `lastmod` is a W3C Datetime (a profile of ISO 8601): `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a date with
/// `Thh:mm`, `Thh:mm:ss` or `Thh:mm:ss.s…` and a zone (`Z`, `±hh:mm`, `±hhmm`; none is read as UTC). Atom's
/// RFC 3339 dates are the same. RSS dates are RFC 822 (`Wed, 02 Oct 2002 13:00:00 GMT`). A date is read
/// as the earliest moment it names.
package enum SitemapDate {
    /// Seconds since 1970 of `text`, or `nil` when it is none of the forms above or names no real date.
    package static func seconds(_ text: String) -> Double? {
        // Trimmed by hand: Foundation's trimming cost more than the parse (a sitemap has 50,000 dates).
        let bytes = Array(text.utf8)
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return nil }
        let trimmed = Array(bytes[first...last])
        if let value = w3c(trimmed) { return value }
        return rfc822(String(decoding: trimmed, as: UTF8.self))
    }

    /// A W3C Datetime.
    static func w3c(_ bytes: [UInt8]) -> Double? {
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4) else { return nil }
        var month = 1
        var day = 1
        var seconds = 0.0
        if skip(UInt8(ascii: "-")) {
            guard let given = number(2) else { return nil }
            month = given
            if skip(UInt8(ascii: "-")) {
                guard let given = number(2) else { return nil }
                day = given
                if skip(UInt8(ascii: "T")) || skip(UInt8(ascii: " ")) {
                    guard let hour = number(2), skip(UInt8(ascii: ":")), let minute = number(2), hour < 24, minute < 60
                    else { return nil }
                    seconds = Double(hour * 3600 + minute * 60)
                    if skip(UInt8(ascii: ":")) {
                        guard let second = number(2), second <= 60 else { return nil }
                        seconds += Double(second)
                        if skip(UInt8(ascii: ".")) {
                            var scale = 0.1
                            var digits = 0
                            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                                seconds += Double(bytes[index] - 0x30) * scale
                                scale /= 10
                                index += 1
                                digits += 1
                            }
                            guard digits > 0 else { return nil }
                        }
                    }
                    if skip(UInt8(ascii: "Z")) || skip(UInt8(ascii: "z")) {
                    } else if index < bytes.count,
                        bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
                    {
                        let sign = bytes[index] == UInt8(ascii: "+") ? 1.0 : -1.0
                        index += 1
                        guard let hours = number(2) else { return nil }
                        _ = skip(UInt8(ascii: ":"))
                        guard let minutes = number(2), hours < 24, minutes < 60 else { return nil }
                        seconds -= sign * Double(hours * 3600 + minutes * 60)
                    }
                }
            }
        }
        guard index == bytes.count, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day) else {
            return nil
        }
        return Double(days(year: year, month: month, day: day)) * 86_400 + seconds
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// An RFC 822 date, with or without the weekday, with a numeric or named zone.
    static func rfc822(_ text: String) -> Double? {
        guard text.count <= 64, text.contains(":") else { return nil }
        return FixedFormatDate.seconds(
            text,
            formats: [
                "EEE, d MMM yyyy HH:mm:ss Z", "EEE, d MMM yyyy HH:mm:ss zzz", "d MMM yyyy HH:mm:ss Z",
                "d MMM yyyy HH:mm:ss zzz", "EEE, d MMM yyyy HH:mm Z",
            ])
    }
}
