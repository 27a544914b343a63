import Foundation

/// An attribute a query may name, and the SQL expression it reads (from the index's own schema,
/// never from user text).
public struct QueryColumn: Sendable, Hashable {
    /// How the attribute's values compare.
    public enum Kind: Sendable, Hashable {
        /// Text (`==` exact or with wildcards and modifiers, `<`/`>` by code point).
        case text
        /// A number.
        case number
        /// A date stored as seconds since 1970; strings are read as ISO 8601.
        case date
    }

    /// The SQL expression, e.g. `item.title`.
    public var sql: String
    /// How it compares.
    public var kind: Kind

    /// Creates a column.
    public init(sql: String, kind: Kind) {
        self.sql = sql
        self.kind = kind
    }
}

/// A bound parameter of a compiled query.
public enum QueryArgument: Sendable, Hashable {
    case text(String)
    case number(Double)
}

/// Compiles a ``QueryExpression`` to a parameterised SQL condition: user text only ever reaches SQL as
/// a bound argument, never as SQL or pattern syntax it did not write (wildcards are translated and
/// escaped here).
public struct QueryCompiler: Sendable {
    /// The attributes queries may use, by name.
    public var columns: [String: QueryColumn]
    /// The SQL function that folds case and diacritics (for `d`), registered by the store;
    /// `lower` folds case only.
    public var foldFunction: String
    /// The SQL function that folds case only (for `c` without `d`); SQLite's `lower` folds ASCII
    /// letters only, so a store registers a Unicode one (`"CRÈME"c` must match "Crème").
    public var caseFoldFunction: String

    /// Creates a compiler.
    public init(columns: [String: QueryColumn], foldFunction: String = "lower", caseFoldFunction: String = "lower") {
        self.columns = columns
        self.foldFunction = foldFunction
        self.caseFoldFunction = caseFoldFunction
    }

    /// The condition and its arguments, in order. `now` resolves `$time` values. The SQL nests no
    /// deeper than the query's own parentheses and `!` (see ``structure(of:leaf:)``).
    /// - Throws: ``QuerySyntaxError`` for an unknown attribute (at the attribute's column) or a value
    ///   of the wrong kind or an unreadable ISO 8601 date (at the value's column).
    public func compile(_ expression: QueryExpression, now: Date = Date()) throws(QuerySyntaxError) -> (
        sql: String, arguments: [QueryArgument]
    ) {
        var arguments: [QueryArgument] = []
        let sql = try Self.structure(of: expression) { leaf throws(QuerySyntaxError) in
            try comparison(leaf, now: now, arguments: &arguments)
        }
        return (sql, arguments)
    }

    /// One comparison or `InRange`, in parentheses.
    private func comparison(_ expression: QueryExpression, now: Date, arguments: inout [QueryArgument])
        throws(QuerySyntaxError) -> String
    {
        switch expression {
        case .inRange(let attribute, let low, let high, let location):
            let column = try self.column(attribute, at: location)
            arguments.append(try argument(low, for: column, now: now, at: location.column(ofValue: 0)))
            arguments.append(try argument(high, for: column, now: now, at: location.column(ofValue: 1)))
            return "(\(column.sql) >= ? AND \(column.sql) <= ?)"
        case .comparison(let attribute, let op, let value, let modifiers, let location):
            let column = try self.column(attribute, at: location)
            if value == .any { return "(\(column.sql) IS \(op == .equal ? "NOT " : "")NULL)" }
            if column.kind == .text, case .string(let text) = value, op == .equal || op == .notEqual {
                let match = textMatch(column.sql, text, modifiers, arguments: &arguments)
                return op == .equal ? match : "(NOT \(match))"
            }
            arguments.append(try argument(value, for: column, now: now, at: location.column(ofValue: 0)))
            return "(\(column.sql) \(op == .equal ? "=" : op.rawValue) ?)"
        case .and, .or, .not:
            // Not reached from `compile`, which hands over comparisons only; correct all the same.
            return try Self.structure(of: expression) { leaf throws(QuerySyntaxError) in
                try comparison(leaf, now: now, arguments: &arguments)
            }
        }
    }

    /// `==` on text: exact, or a GLOB pattern when the value has wildcards; `c`/`d` fold both sides;
    /// `w` matches one word of the attribute; `t` requires every word of the value to match a word.
    private func textMatch(
        _ sql: String, _ text: String, _ modifiers: QueryModifiers, arguments: inout [QueryArgument]
    ) -> String {
        let fold = modifiers.contains(.diacriticInsensitive) ? foldFunction : caseFoldFunction
        let folded = !modifiers.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive])
        let subject = folded ? "\(fold)(\(sql))" : sql
        func parameter() -> String { folded ? "\(fold)(?)" : "?" }
        if modifiers.contains(.tokenized) || modifiers.contains(.wordBased) {
            let words = modifiers.contains(.tokenized) ? text.split(separator: " ").map(String.init) : [text]
            let clauses = words.map { word -> String in
                arguments.append(.text("* " + Self.globPattern(word) + " *"))
                return "(' ' || \(subject) || ' ') GLOB \(parameter())"
            }
            return "(" + (clauses.isEmpty ? "0" : clauses.joined(separator: " AND ")) + ")"
        }
        if Self.hasWildcard(text) {
            arguments.append(.text(Self.globPattern(text)))
            return "(\(subject) GLOB \(parameter()))"
        }
        arguments.append(.text(text.replacingOccurrences(of: "\\*", with: "*")))
        return "(\(subject) = \(parameter()))"
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

    /// Whether `text` has an unescaped `*`.
    static func hasWildcard(_ text: String) -> Bool {
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                return true
            }
        }
        return false
    }

    /// `text` as a GLOB pattern: `*` stays a wildcard, `\*` and GLOB's own `?`, `[`, `]` are literal.
    static func globPattern(_ text: String) -> String {
        var pattern = ""
        var escaped = false
        for character in text {
            if escaped {
                pattern += character == "*" ? "[*]" : String(character)
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "?": pattern += "[?]"
            case "[": pattern += "[[]"
            case "]": pattern += "[]]"
            default: pattern.append(character)
            }
        }
        return pattern
    }
}
