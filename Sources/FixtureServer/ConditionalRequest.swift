import Foundation

/// Decides whether a conditional GET or HEAD is answered 304, following RFC 9110 §13.2.2.
enum ConditionalRequest {
    /// Whether a request with these validator headers gets 304 Not Modified for a representation with `etag` and
    /// `lastModified`.
    ///
    /// `If-None-Match`, when present, decides alone (weak comparison, or `*`). Otherwise `If-Modified-Since` gives
    /// 304 when its date is at or after `lastModified`; when either date cannot be parsed, only an exact string
    /// match counts.
    static func isNotModified(
        ifNoneMatch: String?,
        ifModifiedSince: String?,
        etag: String?,
        lastModified: String
    ) -> Bool {
        if let ifNoneMatch {
            guard let etag else { return false }
            return matches(ifNoneMatch: ifNoneMatch, etag: etag)
        }
        guard let ifModifiedSince else { return false }
        if let since = HTTPDate.secondsSince1970(ifModifiedSince),
            let modified = HTTPDate.secondsSince1970(lastModified)
        {
            return since >= modified
        }
        return ifModifiedSince.trimmed == lastModified.trimmed
    }

    /// Whether an `If-None-Match` list contains `etag` under weak comparison (a `W/` prefix on either side is
    /// ignored), or is `*`.
    static func matches(ifNoneMatch: String, etag: String) -> Bool {
        let wanted = opaqueTag(etag)
        return ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmed
            return tag == "*" || opaqueTag(tag) == wanted
        }
    }

    /// An entity tag without its weakness marker, so `W/"a"` and `"a"` compare equal.
    private static func opaqueTag<S: StringProtocol>(_ tag: S) -> String {
        let trimmed = tag.trimmed
        return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
    }
}

/// Parsing the HTTP date format (RFC 9110 §5.6.7), enough for `If-Modified-Since`.
enum HTTPDate {
    /// Seconds since 1970-01-01 00:00:00 UTC for an IMF-fixdate such as `"Sun, 06 Nov 1994 08:49:37 GMT"`, or nil.
    ///
    /// The obsolete RFC 850 and asctime forms are not accepted; clients (libcurl included) send IMF-fixdate.
    static func secondsSince1970(_ text: String) -> Int? {
        let parts = text.trimmed.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let time = parts[4].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysSince1970(year: year, month: month + 1, day: day)
        return ((days * 24 + hour) * 60 + minute) * 60 + second
    }

    /// The current time as an IMF-fixdate, for a `Date` header.
    static func now() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: Date())
    }

    /// Month abbreviations in order, as the date format spells them.
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmed: String {
        let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" }
        let kept = scalars.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return String(String.UnicodeScalarView(kept))
    }
}
