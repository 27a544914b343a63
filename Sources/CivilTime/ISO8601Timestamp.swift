/// The one reader of ISO 8601 timestamps: donation dates (SPEC §6), the query language's `$time.iso("…")`
/// and date strings (SPEC §4), sitemap `lastmod` and Atom dates.
///
/// It reads the RFC 3339 profile of ISO 8601, plus a date alone, in extended format only:
///
/// ```
/// timestamp = date [("T" / "t" / " ") time [zone]]
/// date      = YYYY "-" MM "-" DD              ; YYYY or YYYY-MM too with `reducedPrecision`
/// time      = hh ":" mm [":" ss ["." 1*DIGIT]]
/// zone      = "Z" / "z" / ("+" / "-") hh [[":"] mm]
/// ```
///
/// - A date alone, or a time without a zone, is read as UTC (a program's dates carry no local zone).
/// - Fields are checked, never rolled over: the day must exist in its month (`2027-02-29` is refused,
///   `2028-02-29` read), hours are 00–23 (`24:00` is refused), minutes 00–59, offsets up to ±23:59.
/// - Seconds are 00–60. 60 is a leap second (RFC 3339 §5.7): seconds since 1970 count no leap seconds,
///   so `23:59:60Z` reads as the next day's `00:00:00Z`, as Foundation's parser reads it. Whether the
///   leap second really happened is not checked (that needs a table of them, and the result is the same
///   instant either way). Anything above 60 (`00:00:75`) is refused.
/// - Days are counted in the proleptic Gregorian calendar, as ISO 8601 asks, before the 1582 reform too
///   (Foundation's parser reads those in the Julian calendar, days apart).
/// - Not read: basic format (`20270101`), ordinal and week dates, a comma as decimal sign, years outside
///   0000–9999, whitespace around the text, zone names (`UTC`, `GMT`), and texts over ``maxBytes``.
package enum ISO8601Timestamp {
    /// The longest text read, in bytes: `2027-01-01T00:00:00.123456789+05:30` is 35; a longer text is no
    /// date a program wrote, and the bound keeps the read of untrusted text short.
    package static let maxBytes = 64

    /// Seconds since 1970-01-01T00:00:00Z of `text`, or `nil` when it is not a timestamp of the grammar
    /// above. With `reducedPrecision`, a year (`2027`) or a month (`2027-03`) alone is read as its first
    /// day (W3C Datetime allows them; donations and queries do not).
    package static func secondsSince1970(_ text: some StringProtocol, reducedPrecision: Bool = false) -> Double? {
        text.withUTF8Bytes { secondsSince1970(utf8: $0, reducedPrecision: reducedPrecision) }
    }

    /// ``secondsSince1970(_:reducedPrecision:)`` over UTF-8 bytes.
    package static func secondsSince1970(utf8 bytes: UnsafeBufferPointer<UInt8>, reducedPrecision: Bool = false)
        -> Double?
    {
        guard bytes.count <= maxBytes else { return nil }
        var scanner = ByteScanner(bytes)
        guard let date = readDate(&scanner, reducedPrecision: reducedPrecision) else { return nil }
        var seconds = Double(date.daysSince1970 * 86_400)
        if scanner.skip(UInt8(ascii: "T")) || scanner.skip(UInt8(ascii: "t")) || scanner.skip(UInt8(ascii: " ")) {
            // A time needs a whole date: `2027-03T10:00` names no moment.
            guard date.isComplete, let clock = readClock(&scanner) else { return nil }
            seconds += clock
            guard let offset = readZone(&scanner) else { return nil }
            seconds -= Double(offset)
        }
        return scanner.isAtEnd ? seconds : nil
    }

    /// The date fields read, and whether all three were given.
    private struct DateFields {
        let civil: CivilDate
        let isComplete: Bool
        var daysSince1970: Int { civil.daysSince1970 }
    }

    private static func readDate(_ scanner: inout ByteScanner, reducedPrecision: Bool) -> DateFields? {
        guard let year = scanner.digits(4) else { return nil }
        var month = 1
        var day = 1
        var fields = 1
        if scanner.skip(UInt8(ascii: "-")) {
            guard let given = scanner.digits(2) else { return nil }
            month = given
            fields = 2
            if scanner.skip(UInt8(ascii: "-")) {
                guard let given = scanner.digits(2) else { return nil }
                day = given
                fields = 3
            }
        }
        guard fields == 3 || reducedPrecision, let civil = CivilDate(year: year, month: month, day: day) else {
            return nil
        }
        return DateFields(civil: civil, isComplete: fields == 3)
    }

    /// `hh:mm[:ss[.fraction]]` as seconds into the day; a leap second's 60 is counted as it reads.
    private static func readClock(_ scanner: inout ByteScanner) -> Double? {
        guard let hour = scanner.digits(2), hour < 24, scanner.skip(UInt8(ascii: ":")),
            let minute = scanner.digits(2), minute < 60
        else { return nil }
        var seconds = Double(hour * 3_600 + minute * 60)
        if scanner.skip(UInt8(ascii: ":")) {
            guard let second = scanner.digits(2), second <= 60 else { return nil }
            seconds += Double(second)
            if scanner.skip(UInt8(ascii: ".")) {
                guard let fraction = scanner.fraction() else { return nil }
                seconds += fraction
            }
        }
        return seconds
    }

    /// The zone's offset east of UTC in seconds: 0 for `Z` or for no zone at all, `nil` when one is
    /// started and malformed.
    private static func readZone(_ scanner: inout ByteScanner) -> Int? {
        if scanner.skip(UInt8(ascii: "Z")) || scanner.skip(UInt8(ascii: "z")) || scanner.isAtEnd { return 0 }
        let sign: Int
        if scanner.skip(UInt8(ascii: "+")) {
            sign = 1
        } else if scanner.skip(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return nil
        }
        guard let hours = scanner.digits(2), hours < 24 else { return nil }
        var minutes = 0
        if scanner.skip(UInt8(ascii: ":")) {
            guard let given = scanner.digits(2) else { return nil }
            minutes = given
        } else if let given = scanner.digits(2) {
            minutes = given
        }
        guard minutes < 60 else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}
