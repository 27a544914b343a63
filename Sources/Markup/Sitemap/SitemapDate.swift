internal import CivilTime
import Foundation

/// The dates sitemaps give (`lastmod`, RSS `pubDate`, Atom `updated`), as seconds since 1970.
///
/// `lastmod` is a W3C Datetime (a profile of ISO 8601): `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a date with
/// `Thh:mm`, `Thh:mm:ss` or `Thh:mm:ss.s…` and a zone (`Z`, `±hh:mm`, `±hhmm`, `±hh`; none is read as UTC), as
/// CivilTime's `ISO8601Timestamp` reads it (days checked against their month, seconds up to 60). Atom's
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
        let trimmed = bytes[first...last]
        // W3C Datetime is the ISO 8601 profile CivilTime reads, with a year or a month alone allowed.
        if let value = trimmed.withUnsafeBufferPointer({
            ISO8601Timestamp.secondsSince1970(utf8: $0, reducedPrecision: true)
        }) {
            return value
        }
        return rfc822(String(decoding: trimmed, as: UTF8.self))
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
