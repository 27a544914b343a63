import Foundation

/// Dates written in one of a few fixed English formats (RFC 822 dates in feeds; HTTP dates are CivilTime's
/// `HTTPDate`), read with the POSIX locale in GMT unless the text names its zone.
package enum FixedFormatDate {
    /// Seconds since 1970 of `text` in the first of `formats` (`DateFormatter` patterns) that reads it.
    package static func seconds(_ text: String, formats: [String]) -> Double? {
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        }
        return nil
    }
}
