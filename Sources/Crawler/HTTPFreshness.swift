internal import CivilTime
import Foundation

/// How long a response says it stays fresh (RFC 9111 §4.2.1), as a shared cache reads it: `s-maxage`, else
/// `max-age`, else `Expires` minus `Date`.
///
/// Only a positive lifetime says something about when the page may change: `no-store`, `no-cache`, a zero
/// `max-age` or an `Expires` in the past (or not a date) are what frameworks send by default on pages that
/// change once a month, so they give no lifetime rather than one of zero.
enum FreshnessLifetime {
    /// The lifetime in seconds, or `nil` when the response gives none (or none above zero).
    static func seconds(cacheControl: String?, expires: String?, date: String?, now: Double) -> Double? {
        if let cacheControl {
            var maxAge: Double?
            var sharedMaxAge: Double?
            for directive in cacheControl.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = parts.first else { continue }
                let name = first.trimmingCharacters(in: .whitespaces).lowercased()
                let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
                let number = argument.flatMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
                switch name {
                case "no-store", "no-cache": return nil
                case "s-maxage": sharedMaxAge = number.map { max(0, $0) } ?? sharedMaxAge
                case "max-age": maxAge = number.map { max(0, $0) } ?? maxAge
                default: break
                }
            }
            if let lifetime = sharedMaxAge ?? maxAge { return lifetime > 0 ? lifetime : nil }
        }
        guard let expires, let expiry = HTTPDate(expires).map({ Double($0.secondsSince1970) }) else { return nil }
        let sent = date.flatMap { HTTPDate($0) }.map { Double($0.secondsSince1970) } ?? now
        return expiry > sent ? expiry - sent : nil
    }
}

/// Which of a response's validators may make the next request to its URL conditional (RFC 9110 §8.8).
enum ConditionalValidators {
    /// `Last-Modified` when it is a strong validator: at least one second before the response's `Date` (RFC 9110
    /// §8.8.2.2). A resource may change again within the second it last changed, keeping the same date, and an
    /// `If-Modified-Since` built on it would then be answered 304 for content never seen. Without a `Date` (or
    /// with either not a date) its strength cannot be told. `nil` then: the next visit asks without it (with the
    /// `ETag`, if any) and compares the content hash.
    static func lastModified(_ lastModified: String?, date: String?) -> String? {
        guard let lastModified, let modified = HTTPDate(lastModified), let date, let sent = HTTPDate(date),
            sent.secondsSince1970 - modified.secondsSince1970 >= 1
        else { return nil }
        return lastModified
    }
}
