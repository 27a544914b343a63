internal import CivilTime
import Foundation

/// Reads a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
enum RetryAfter {
    /// The wait in seconds from `now` (seconds since 1970), or `nil` when the header is
    /// absent or unreadable. A date in the past gives 0.
    static func seconds(_ value: String?, now: Double) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // Very long digit strings are clamped rather than overflowing.
            return Double(value.prefix(9)).map { value.count > 9 ? 999_999_999 : $0 }
        }
        if let date = HTTPDate(value) { return max(0, Double(date.secondsSince1970) - now) }
        return nil
    }
}
