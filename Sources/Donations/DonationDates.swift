internal import CivilTime
import Foundation

/// Dates as donation files carry them (`expirationDate`, SPEC §6): ISO 8601 as CivilTime's
/// ``ISO8601Timestamp`` reads it, the reader `$time.iso("…")` in a query shares, so a date a donation may
/// carry is one a query may name. `2027-01-01T00:00:00Z`, with or without fractional seconds, any offset
/// up to ±23:59, or a date alone (midnight UTC); a day its month does not have, an hour of 24 or a second
/// above 60 is refused.
package enum DonationDates {
    /// Whether ``parse(_:)`` reads `text`.
    static func isValid(_ text: String) -> Bool {
        ISO8601Timestamp.secondsSince1970(text) != nil
    }

    /// The instant, or `nil` when `text` is not an ISO 8601 date.
    package static func parse(_ text: String) -> Date? {
        ISO8601Timestamp.secondsSince1970(text).map(Date.init(timeIntervalSince1970:))
    }

    /// Whether `text` is the usual shape, `YYYY-MM-DDTHH:MM:SSZ`, and a date: what the tests hold to
    /// Foundation's own parser, instant for instant.
    static func isPlainUTC(_ text: String) -> Bool {
        let bytes = text.utf8
        return bytes.count == 20 && bytes.last == UInt8(ascii: "Z") && text.dropFirst(10).first == "T"
            && isValid(text)
    }
}
