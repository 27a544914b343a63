/// A parsed `CSSearchQuery` string (SPEC §4): comparisons of attributes with values, combined with
/// `&&`, `||`, `!` and parentheses.
///
/// The parser keeps `&&` and `||` chains flat: `a && b && c` and `a && (b && c)` are both
/// `.and([a, b, c])`, and no operand of an `and` (`or`) it makes is itself an `and` (`or`), so a
/// long chain is one list, not a deep tree.
package indirect enum QueryExpression: Sendable, Hashable {
    /// `attribute op value` with the value's modifiers, and where it was written.
    case comparison(
        attribute: String, op: ComparisonOperator, value: QueryValue, modifiers: QueryModifiers,
        location: QueryLocation = QueryLocation())
    /// `InRange(attribute, low, high)`: low ≤ attribute ≤ high, and where it was written.
    case inRange(attribute: String, low: QueryValue, high: QueryValue, location: QueryLocation = QueryLocation())
    /// All of the operands (at least two).
    case and([QueryExpression])
    /// Any of the operands (at least two).
    case or([QueryExpression])
    /// Not.
    case not(QueryExpression)
}

/// Where a comparison's parts were written: the 1-based columns (in characters) of its attribute and
/// of each of its values (one for a comparison, low and high for `InRange`), so that an error about
/// one of them can point at it; `0` for an expression that was not parsed from text.
///
/// Locations take no part in equality: two comparisons that say the same thing are equal wherever
/// they were written.
package struct QueryLocation: Sendable, Hashable {
    /// The column of the attribute name.
    package var attribute: Int
    /// The columns of the values, in order.
    package var values: [Int]

    /// Creates a location.
    package init(attribute: Int = 0, values: [Int] = []) {
        self.attribute = attribute
        self.values = values
    }

    /// The column of the value at `index` (0 for a comparison's value, 0 and 1 for `InRange`'s low
    /// and high); the attribute's when it is not known.
    package func column(ofValue index: Int) -> Int {
        values.indices.contains(index) ? values[index] : attribute
    }

    package static func == (_: QueryLocation, _: QueryLocation) -> Bool { true }
    package func hash(into _: inout Hasher) {}
}

/// The comparison operators of the query language.
package enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
}

/// A value in a query.
package enum QueryValue: Sendable, Hashable {
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
package struct TimeExpression: Sendable, Hashable {
    /// `now`, `today`, `yesterday`, `this_week`, `this_month`, `this_year`, `iso`.
    package var function: String
    /// The offset in units of the function (days for `today`, weeks for `this_week`…); `0` when absent.
    package var offset: Double
    /// The ISO 8601 text of `$time.iso(…)`.
    package var isoText: String?

    /// Creates a `$time` expression.
    package init(function: String, offset: Double, isoText: String?) {
        self.function = function
        self.offset = offset
        self.isoText = isoText
    }
}

/// The modifiers after a quoted string: `c` case-insensitive, `d` diacritic-insensitive, `w` word-based
/// (matches a word of the attribute), `t` tokenized (each word of the value matches some word).
package struct QueryModifiers: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    /// Creates modifiers.
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// `c`.
    package static let caseInsensitive = QueryModifiers(rawValue: 1)
    /// `d`.
    package static let diacriticInsensitive = QueryModifiers(rawValue: 2)
    /// `w`.
    package static let wordBased = QueryModifiers(rawValue: 4)
    /// `t`.
    package static let tokenized = QueryModifiers(rawValue: 8)
}

/// A query that does not parse: where (1-based column, in characters) and why.
package struct QuerySyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based column of the problem.
    package var column: Int
    /// What is wrong.
    package var message: String
    /// `column N: message`.
    package var description: String { "column \(column): \(message)" }
}
