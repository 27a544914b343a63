import Foundation

/// An attribute a query may name, and the SQL expression it reads (from the index's own schema,
/// never from user text).
package struct QueryColumn: Sendable, Hashable {
    /// How the attribute's values compare.
    package enum Kind: Sendable, Hashable {
        /// Text (`==` exact or with wildcards and modifiers, `<`/`>` by code point).
        case text
        /// A number.
        case number
        /// A date stored as seconds since 1970; strings are read as ISO 8601.
        case date
    }

    /// The SQL expression, e.g. `item.title`.
    package var sql: String
    /// How it compares.
    package var kind: Kind

    /// Creates a column.
    package init(sql: String, kind: Kind) {
        self.sql = sql
        self.kind = kind
    }
}

/// A bound parameter of a compiled query.
package enum QueryArgument: Sendable, Hashable {
    case text(String)
    case number(Double)
}

/// Compiles a ``QueryExpression`` to a parameterised SQLite condition (`?` placeholders, text patterns with
/// `GLOB`; every engine's searches run on SQLite's FTS5 index): user text only ever reaches SQL as
/// a bound argument, never as SQL or pattern syntax it did not write (wildcards are translated and
/// escaped here).
package struct QueryCompiler: Sendable {
    /// The attributes queries may use, by name.
    package var columns: [String: QueryColumn]
    /// The SQL function that folds case and diacritics (for `d`), registered by the store; `lower` folds
    /// case only.
    package var foldFunction: String
    /// The SQL function that folds case only (for `c` without `d`); SQLite's `lower` folds ASCII
    /// letters only, so a store registers a Unicode one (`"CRÈME"c` must match "Crème").
    package var caseFoldFunction: String
    /// Creates a compiler.
    package init(
        columns: [String: QueryColumn], foldFunction: String = "lower", caseFoldFunction: String = "lower"
    ) {
        self.columns = columns
        self.foldFunction = foldFunction
        self.caseFoldFunction = caseFoldFunction
    }

    /// The condition and its arguments, in order. `now` resolves `$time` values. The SQL nests no
    /// deeper than the query's own parentheses and `!` (see ``structure(of:leaf:)``).
    /// - Throws: ``QuerySyntaxError`` for an unknown attribute (at the attribute's column) or a value
    ///   of the wrong kind or an unreadable ISO 8601 date (at the value's column).
    package func compile(_ expression: QueryExpression, now: Date = Date())
        throws(QuerySyntaxError) -> (sql: String, arguments: [QueryArgument])
    {
        var arguments = Arguments()
        let sql = try Self.structure(of: expression) { leaf throws(QuerySyntaxError) in
            try comparison(leaf, now: now, arguments: &arguments)
        }
        return (sql, arguments.values)
    }

    /// The arguments bound so far.
    private struct Arguments {
        var values: [QueryArgument] = []

        /// Binds `argument`; returns its placeholder.
        mutating func bind(_ argument: QueryArgument) -> String {
            values.append(argument)
            return "?"
        }
    }

    /// One comparison or `InRange`, in parentheses.
    private func comparison(_ expression: QueryExpression, now: Date, arguments: inout Arguments)
        throws(QuerySyntaxError) -> String
    {
        switch expression {
        case .inRange(let attribute, let low, let high, let location):
            let column = try self.column(attribute, at: location)
            let lowValue = try argument(low, for: column, now: now, at: location.column(ofValue: 0))
            let highValue = try argument(high, for: column, now: now, at: location.column(ofValue: 1))
            let lowParameter = arguments.bind(lowValue)
            return "(\(column.sql) >= \(lowParameter) AND \(column.sql) <= \(arguments.bind(highValue)))"
        case .comparison(let attribute, let op, let value, let modifiers, let location):
            let column = try self.column(attribute, at: location)
            if value == .any { return "(\(column.sql) IS \(op == .equal ? "NOT " : "")NULL)" }
            if column.kind == .text, case .string(let text) = value, op == .equal || op == .notEqual {
                let match = textMatch(column.sql, text, modifiers, arguments: &arguments)
                return op == .equal ? match : "(NOT \(match))"
            }
            let parameter = arguments.bind(
                try argument(value, for: column, now: now, at: location.column(ofValue: 0)))
            return "(\(column.sql) \(op == .equal ? "=" : op.rawValue) \(parameter))"
        case .and, .or, .not:
            // Not reached from `compile`, which hands over comparisons only; correct all the same.
            return try Self.structure(of: expression) { leaf throws(QuerySyntaxError) in
                try comparison(leaf, now: now, arguments: &arguments)
            }
        }
    }

    /// `==` on text: exact, or a pattern when the value has wildcards (`GLOB`, whose only wildcard given is
    /// `*`); `c`/`d`
    /// fold both sides; `w` matches one word of the attribute; `t` requires every word of the value to
    /// match a word.
    private func textMatch(
        _ sql: String, _ text: String, _ modifiers: QueryModifiers, arguments: inout Arguments
    ) -> String {
        let fold = modifiers.contains(.diacriticInsensitive) ? foldFunction : caseFoldFunction
        let folded = !modifiers.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive])
        let subject = folded ? "\(fold)(\(sql))" : sql
        func parameter(_ value: String) -> String {
            let placeholder = arguments.bind(.text(value))
            return folded ? "\(fold)(\(placeholder))" : placeholder
        }
        if modifiers.contains(.tokenized) || modifiers.contains(.wordBased) {
            let words = modifiers.contains(.tokenized) ? text.split(separator: " ").map(String.init) : [text]
            let clauses = words.map { word -> String in
                "(' ' || \(subject) || ' ') GLOB \(parameter("* " + Self.globPattern(word) + " *"))"
            }
            return "(" + (clauses.isEmpty ? "0" : clauses.joined(separator: " AND ")) + ")"
        }
        if Self.hasWildcard(text) {
            return "(\(subject) GLOB \(parameter(Self.globPattern(text))))"
        }
        return "(\(subject) = \(parameter(text.replacingOccurrences(of: "\\*", with: "*"))))"
    }

    private func column(_ attribute: String, at location: QueryLocation) throws(QuerySyntaxError) -> QueryColumn {
        guard let column = columns[attribute] else {
            throw QuerySyntaxError(
                column: location.attribute,
                message: "unknown attribute '\(attribute)' (known: \(columns.keys.sorted().joined(separator: ", ")))")
        }
        return column
    }

    /// `value` as an argument compared with `column`; an error at `valueColumn` when it cannot be.
    private func argument(_ value: QueryValue, for column: QueryColumn, now: Date, at valueColumn: Int)
        throws(QuerySyntaxError) -> QueryArgument
    {
        switch (value, column.kind) {
        case (.number(let number), .number), (.number(let number), .date): return .number(number)
        case (.time(let time), .date), (.time(let time), .number): return .number(QueryTime.resolve(time, now: now))
        case (.string(let text), .text): return .text(text.replacingOccurrences(of: "\\*", with: "*"))
        case (.string(let text), .date):
            guard let date = QueryTime.isoDate(text) else {
                throw QuerySyntaxError(column: valueColumn, message: "not an ISO 8601 date: '\(text)'")
            }
            return .number(date.timeIntervalSince1970)
        case (.number(let number), .text): return .text(String(number))
        default:
            let holds =
                switch column.kind {
                case .text: "text"
                case .number: "numbers"
                case .date: "dates ($time… or an ISO 8601 string)"
                }
            throw QuerySyntaxError(
                column: valueColumn, message: "a value of the wrong kind for this attribute (it holds \(holds))")
        }
    }
}
