import Foundation
import Markup

/// HTTP dates (RFC 9110 §5.6.7): the preferred IMF-fixdate and the two obsolete forms.
enum HTTPDate {
    /// Seconds since 1970 of `value`, or `nil` when it is not an HTTP date.
    static func parse(_ value: String) -> Double? {
        let value = value.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return nil }
        return FixedFormatDate.seconds(
            value,
            formats: ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"])
    }
}

/// How long a response says it stays fresh (RFC 9111 §4.2.1), as a shared cache reads it: `s-maxage`, else
/// `max-age`, else `Expires` minus `Date`; `no-store` and `no-cache` mean 0, as does an `Expires` that is
/// not a date.
enum FreshnessLifetime {
    /// The lifetime in seconds, or `nil` when the response does not say.
    static func seconds(cacheControl: String?, expires: String?, date: String?, now: Double) -> Double? {
        if let cacheControl {
            var maxAge: Double?
            var sharedMaxAge: Double?
            for directive in cacheControl.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
                let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
                let number = argument.flatMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) }
                switch name {
                case "no-store", "no-cache": return 0
                case "s-maxage": sharedMaxAge = number.map { max(0, $0) } ?? sharedMaxAge
                case "max-age": maxAge = number.map { max(0, $0) } ?? maxAge
                default: break
                }
            }
            if let lifetime = sharedMaxAge ?? maxAge { return lifetime }
        }
        guard let expires else { return nil }
        guard let expiry = HTTPDate.parse(expires) else { return 0 }
        let sent = date.flatMap(HTTPDate.parse) ?? now
        return max(0, expiry - sent)
    }
}
