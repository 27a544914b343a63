#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one reader and writer of HTTP dates (RFC 9110 §5.6.7): `Date`, `Expires`, `Last-Modified`,
/// `If-Modified-Since`, `Retry-After`.
///
/// Three forms are read, as RFC 9110 asks of a recipient:
///
/// ```
/// IMF-fixdate  Sun, 06 Nov 1994 08:49:37 GMT     (the one senders may write)
/// rfc850-date  Sunday, 06-Nov-94 08:49:37 GMT    (obsolete)
/// asctime-date Sun Nov  6 08:49:37 1994          (obsolete)
/// ```
///
/// RFC 9110 encourages robustness in reading timestamps, so a few deviations seen from real servers are read
/// too, and mark the date not ``isExact``: day, month and zone names in any letter case, a one-digit day, the
/// zone written `UTC`, `UT`, `Z`, `+0000` or `-0000`, a four-digit year in the RFC 850 form, a short day
/// name where a long one belongs and the reverse. Anything else is refused: other zones, a day its month does
/// not have, an hour of 24, a second above 60. Second 60 is a leap second and reads as the next minute's
/// first second (seconds since 1970 count no leap seconds). The day name must be one, but is not checked
/// against the date. Spaces and tabs around the text are ignored (a header value's optional whitespace).
package struct HTTPDate: Hashable, Sendable {
    /// Which of the three forms the text was written in.
    package enum Form: Hashable, Sendable {
        case imfFixdate, rfc850, asctime
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    package let secondsSince1970: Int
    /// The form the text was written in.
    package let form: Form
    /// Whether the text followed its form's grammar exactly, without the deviations read for robustness.
    package let isExact: Bool

    /// Whether the text was the preferred form written exactly, `Sun, 06 Nov 1994 08:49:37 GMT`: what a
    /// server that accepts only IMF-fixdate reads.
    package var isIMFFixdate: Bool { form == .imfFixdate && isExact }

    /// The date `text` names, or `nil` when it is none of the forms above.
    ///
    /// An RFC 850 two-digit year is read, as RFC 9110 requires, as the year with those last digits that is
    /// at most 50 years after `referenceYear` (the current UTC year unless given): from 2026, `76` is 2076
    /// and `77` is 1977.
    package init?(_ text: some StringProtocol, referenceYear: Int = HTTPDate.currentYear()) {
        guard let date = text.withUTF8Bytes({ Self.read($0, referenceYear: referenceYear) }) else { return nil }
        self = date
    }

    init(secondsSince1970: Int, form: Form, isExact: Bool) {
        self.secondsSince1970 = secondsSince1970
        self.form = form
        self.isExact = isExact
    }

    /// `seconds` since 1970 as an IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT` (for years 0–9999).
    package static func imfFixdate(secondsSince1970 seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let clock = seconds - days * 86_400
        let date = CivilDate(daysSince1970: days)
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(repeating: "0", count: max(0, 4 - String(date.year).count)) + String(date.year)
        return "\(shortDays[date.weekday]), \(twoDigits(date.day)) \(months[date.month - 1]) \(year) "
            + "\(twoDigits(clock / 3_600)):\(twoDigits(clock / 60 % 60)):\(twoDigits(clock % 60)) GMT"
    }

    /// The current year in UTC, by the system clock.
    package static func currentYear() -> Int {
        CivilDate(daysSince1970: Int(time(nil)) / 86_400).year
    }

    static let shortDays: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longDays: [StaticString] = [
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
    ]
    static let months: [StaticString] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    /// GMT first: it is the exact spelling; the rest are the deviations read for robustness.
    static let zones: [StaticString] = ["GMT", "UTC", "UT", "Z", "+0000", "-0000"]
}
