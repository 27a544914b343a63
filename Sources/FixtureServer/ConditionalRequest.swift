internal import CivilTime
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

extension HTTPDate {
    /// Seconds since 1970 of an IMF-fixdate written exactly, such as `"Sun, 06 Nov 1994 08:49:37 GMT"`, or nil.
    ///
    /// The obsolete RFC 850 and asctime forms, and the deviations CivilTime reads for the crawler, are
    /// refused: clients (libcurl included) send IMF-fixdate, and the fixture server shows what a strict
    /// server answers.
    static func secondsSince1970(_ text: String) -> Int? {
        HTTPDate(text).flatMap { $0.isIMFFixdate ? $0.secondsSince1970 : nil }
    }

    /// The current time as an IMF-fixdate, for a `Date` header.
    static func now() -> String {
        imfFixdate(secondsSince1970: Int(Date().timeIntervalSince1970))
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
