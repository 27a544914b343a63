/// A parsed `CSSearchQuery` string (SPEC §4): comparisons of attributes with values, combined with
/// `&&`, `||`, `!` and parentheses.
public indirect enum QueryExpression: Sendable, Hashable {
    /// `attribute op value` with the value's modifiers.
    case comparison(attribute: String, op: ComparisonOperator, value: QueryValue, modifiers: QueryModifiers)
    /// `InRange(attribute, low, high)`: low ≤ attribute ≤ high.
    case inRange(attribute: String, low: QueryValue, high: QueryValue)
    /// Both.
    case and(QueryExpression, QueryExpression)
    /// Either.
    case or(QueryExpression, QueryExpression)
    /// Not.
    case not(QueryExpression)
}

/// The comparison operators of the query language.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
}

/// A value in a query.
public enum QueryValue: Sendable, Hashable {
    /// A quoted string; `*` in it is a wildcard (`\*` a literal star).
    case string(String)
    /// A number.
    case number(Double)
    /// A `$time…` expression, resolved when the query is compiled.
    case time(TimeExpression)
    /// A bare `*`: any value (the attribute is present).
    case any
}

/// `$time.now`, `$time.today(N)`, `$time.iso("…")` and the other `$time` forms, as seconds since 1970
/// once resolved against a clock.
public struct TimeExpression: Sendable, Hashable {
    /// `now`, `today`, `yesterday`, `this_week`, `this_month`, `this_year`, `iso`.
    public var function: String
    /// The offset in units of the function (days for `today`, weeks for `this_week`…); `0` when absent.
    public var offset: Double
    /// The ISO 8601 text of `$time.iso(…)`.
    public var isoText: String?

    /// Creates a `$time` expression.
    public init(function: String, offset: Double, isoText: String?) {
        self.function = function
        self.offset = offset
        self.isoText = isoText
    }
}

/// The modifiers after a quoted string: `c` case-insensitive, `d` diacritic-insensitive, `w` word-based
/// (matches a word of the attribute), `t` tokenized (each word of the value matches some word).
public struct QueryModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// Creates modifiers.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `c`.
    public static let caseInsensitive = QueryModifiers(rawValue: 1)
    /// `d`.
    public static let diacriticInsensitive = QueryModifiers(rawValue: 2)
    /// `w`.
    public static let wordBased = QueryModifiers(rawValue: 4)
    /// `t`.
    public static let tokenized = QueryModifiers(rawValue: 8)
}

/// A query that does not parse: where (1-based column, in characters) and why.
public struct QuerySyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based column of the problem.
    public var column: Int
    /// What is wrong.
    public var message: String
    /// `column N: message`.
    public var description: String { "column \(column): \(message)" }
}
