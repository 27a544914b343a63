internal import CivilTime
import Foundation

/// `$time` values: lexing, and resolution against a clock (UTC calendar days, weeks from Monday).
enum QueryTime {
    static let functions: Set<String> = ["now", "today", "yesterday", "this_week", "this_month", "this_year", "iso"]

    /// Reads `$time.name`, `$time.name(N)` or `$time.iso("…")` at `start`; returns it and its length.
    static func lex(_ characters: [Character], from start: Int) throws(QuerySyntaxError) -> (TimeExpression, Int) {
        let prefix = Array("$time.")
        guard characters.count >= start + prefix.count, Array(characters[start..<start + prefix.count]) == prefix else {
            throw QuerySyntaxError(column: start + 1, message: "expected $time.…")
        }
        var index = start + prefix.count
        var name = ""
        while index < characters.count, characters[index].isLetter || characters[index] == "_" {
            name.append(characters[index])
            index += 1
        }
        guard functions.contains(name) else {
            throw QuerySyntaxError(
                column: start + 1,
                message: "unknown $time function '\(name)' (\(functions.sorted().joined(separator: ", ")))")
        }
        var expression = TimeExpression(function: name, offset: 0, isoText: nil)
        guard index < characters.count, characters[index] == "(" else {
            if name == "iso" { throw QuerySyntaxError(column: index + 1, message: "$time.iso needs (\"date\")") }
            return (expression, index - start)
        }
        guard let close = characters[index...].firstIndex(of: ")") else {
            throw QuerySyntaxError(column: index + 1, message: "missing ')'")
        }
        let argument = String(characters[(index + 1)..<close]).trimmingCharacters(in: .whitespaces)
        if name == "iso" {
            let text = argument.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            guard Self.isoDate(text) != nil else {
                throw QuerySyntaxError(column: index + 2, message: "not an ISO 8601 date: '\(text)'")
            }
            expression.isoText = text
        } else {
            guard let offset = Double(argument), offset.isFinite, abs(offset) <= 100_000 else {
                throw QuerySyntaxError(
                    column: index + 2, message: "expected a number of \(name == "now" ? "seconds" : "units")")
            }
            expression.offset = offset
        }
        return (expression, close + 1 - start)
    }

    /// Seconds since 1970 for `expression` at `now`: `now(N)` is N seconds from now; `today(N)` the
    /// start of the UTC day N days away; `this_week(N)`, `this_month(N)`, `this_year(N)` the start of
    /// that week (Monday), month or year.
    static func resolve(_ expression: TimeExpression, now: Date) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        calendar.firstWeekday = 2
        let offset = Int(expression.offset)
        func start(of component: Calendar.Component, adding value: Int) -> Double {
            let base = calendar.dateInterval(of: component, for: now)?.start ?? now
            return (calendar.date(byAdding: component, value: value, to: base) ?? base).timeIntervalSince1970
        }
        switch expression.function {
        case "now": return now.timeIntervalSince1970 + expression.offset
        case "today": return start(of: .day, adding: offset)
        case "yesterday": return start(of: .day, adding: -1 + offset)
        case "this_week": return start(of: .weekOfYear, adding: offset)
        case "this_month": return start(of: .month, adding: offset)
        case "this_year": return start(of: .year, adding: offset)
        default:
            return expression.isoText.flatMap(Self.isoDate)?.timeIntervalSince1970 ?? 0
        }
    }

    /// The instant an ISO 8601 date names, or `nil` when `text` is none: CivilTime's ``ISO8601Timestamp``,
    /// the reader donation dates share, so `$time.iso("…")` names any date a donation may carry (a date
    /// alone is midnight UTC) and refuses what it refuses (`2027-02-29`, an hour of 24, a second of 75).
    static func isoDate(_ text: String) -> Date? {
        ISO8601Timestamp.secondsSince1970(text).map(Date.init(timeIntervalSince1970:))
    }
}
