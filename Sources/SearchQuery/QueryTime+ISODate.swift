import Foundation

extension QueryTime {
    /// The instant an ISO 8601 date names, or `nil` when `text` is none. Foundation's parser alone rolls
    /// an impossible day over (`2027-02-30` becomes March 2) and an hour of 24 or more into the next day:
    /// those are refused first.
    static func isoDate(_ text: String) -> Date? {
        guard hasPossibleFields(text) else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    /// Whether the `YYYY-MM-DD` date at the start of `text` exists and a clock after `T` is in range.
    private static func hasPossibleFields(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for index in range {
                let digit = bytes[index] &- 0x30
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == 0x2D, bytes[7] == 0x2D, let year = number(0..<4),
            let month = number(5..<7), let day = number(8..<10)
        else { return true }  // another form: Foundation's parser decides
        guard (1...12).contains(month) else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        if bytes.count >= 16, bytes[10] == 0x54, let hour = number(11..<13), let minute = number(14..<16) {
            return hour < 24 && minute < 60
        }
        return true
    }
}
