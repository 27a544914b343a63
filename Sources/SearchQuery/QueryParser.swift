/// Parses the `CSSearchQuery` language (SPEC §4) into a ``QueryExpression``.
///
/// Grammar: `or := and ("||" and)*`, `and := unary ("&&" unary)*`, `unary := "!" unary | primary`,
/// `primary := "(" or ")" | "InRange" "(" attribute "," value "," value ")" | attribute op value`.
/// Bounded: at most ``maxLength`` characters and ``maxDepth`` levels of nesting. Chains of `&&` and
/// `||` are flat lists (see ``QueryExpression``), so their length costs no depth.
package enum QueryParser {
    /// The longest query accepted.
    package static let maxLength = 4096
    /// The most levels of nesting accepted, each `(` and each `!` one level. The index compiles a
    /// level to at most five entries of SQLite's parser stack, which holds 100, and its heaviest
    /// comparison (a word match over the keywords) and the search around the condition take about
    /// 45 more: so 10 levels still run, and 8 leave room (`IndexTests.LongQueryTests` runs the
    /// deepest of each shape).
    package static let maxDepth = 8

    /// Parses `text`.
    /// - Throws: ``QuerySyntaxError`` naming the column and the problem.
    package static func parse(_ text: String) throws(QuerySyntaxError) -> QueryExpression {
        // Counting stops past the limit: a query of megabytes costs no more than one just over it.
        guard text.dropFirst(maxLength).isEmpty else {
            throw QuerySyntaxError(column: maxLength + 1, message: "query longer than \(maxLength) characters")
        }
        var state = State(tokens: try QueryLexer.tokens(text))
        let expression = try state.orExpression(depth: 0)
        guard case .end = state.current.kind else {
            throw QuerySyntaxError(column: state.current.column, message: "expected '&&', '||' or the end")
        }
        return expression
    }

    private struct State {
        let tokens: [QueryToken]
        var position = 0

        var current: QueryToken { tokens[position] }

        mutating func advance() -> QueryToken {
            defer { position = min(position + 1, tokens.count - 1) }
            return tokens[position]
        }

        mutating func orExpression(depth: Int) throws(QuerySyntaxError) -> QueryExpression {
            var operands = [try andExpression(depth: depth)]
            while case .or = current.kind {
                _ = advance()
                operands.append(try andExpression(depth: depth))
            }
            guard operands.count > 1 else { return operands[0] }
            return .or(
                operands.flatMap { operand -> [QueryExpression] in
                    if case .or(let inner) = operand { return inner }
                    return [operand]
                })
        }

        mutating func andExpression(depth: Int) throws(QuerySyntaxError) -> QueryExpression {
            var operands = [try unary(depth: depth)]
            while case .and = current.kind {
                _ = advance()
                operands.append(try unary(depth: depth))
            }
            guard operands.count > 1 else { return operands[0] }
            return .and(
                operands.flatMap { operand -> [QueryExpression] in
                    if case .and(let inner) = operand { return inner }
                    return [operand]
                })
        }

        mutating func unary(depth: Int) throws(QuerySyntaxError) -> QueryExpression {
            if case .not = current.kind {
                try checkDepth(depth)
                _ = advance()
                return .not(try unary(depth: depth + 1))
            }
            return try primary(depth: depth)
        }

        mutating func primary(depth: Int) throws(QuerySyntaxError) -> QueryExpression {
            if case .open = current.kind { try checkDepth(depth) }
            let token = advance()
            switch token.kind {
            case .open:
                let inner = try orExpression(depth: depth + 1)
                try expect(.close, "')'")
                return inner
            case .identifier(let name) where name.lowercased() == "inrange":
                try expect(.open, "'(' after InRange")
                let (attribute, attributeColumn) = try attributeName()
                try expect(.comma, "','")
                let lowColumn = current.column
                let low = try value()
                try expect(.comma, "','")
                let highColumn = current.column
                let high = try value()
                try expect(.close, "')'")
                return .inRange(
                    attribute: attribute, low: low, high: high,
                    location: QueryLocation(attribute: attributeColumn, values: [lowColumn, highColumn]))
            case .identifier(let name):
                guard case .op(let op) = current.kind else {
                    throw QuerySyntaxError(column: current.column, message: "expected a comparison after '\(name)'")
                }
                _ = advance()
                let valueToken = current
                let value = try value()
                var modifiers = QueryModifiers()
                if case .string(_, let given) = valueToken.kind { modifiers = given }
                if value == .any, op != .equal, op != .notEqual {
                    throw QuerySyntaxError(column: valueToken.column, message: "'*' only compares with == or !=")
                }
                return .comparison(
                    attribute: name, op: op, value: value, modifiers: modifiers,
                    location: QueryLocation(attribute: token.column, values: [valueToken.column]))
            default:
                throw QuerySyntaxError(column: token.column, message: "expected an attribute, '(', '!' or InRange")
            }
        }

        /// Refuses the `(` or `!` at the current token when it would nest deeper than ``maxDepth``.
        func checkDepth(_ depth: Int) throws(QuerySyntaxError) {
            guard depth < QueryParser.maxDepth else {
                throw QuerySyntaxError(column: current.column, message: "nested deeper than \(QueryParser.maxDepth)")
            }
        }

        mutating func attributeName() throws(QuerySyntaxError) -> (name: String, column: Int) {
            let token = advance()
            guard case .identifier(let name) = token.kind else {
                throw QuerySyntaxError(column: token.column, message: "expected an attribute name")
            }
            return (name, token.column)
        }

        mutating func value() throws(QuerySyntaxError) -> QueryValue {
            let token = advance()
            switch token.kind {
            case .string(let text, _): return .string(text)
            case .number(let number): return .number(number)
            case .time(let time): return .time(time)
            case .star: return .any
            default:
                throw QuerySyntaxError(
                    column: token.column, message: "expected a value (\"text\", a number, $time… or *)")
            }
        }

        mutating func expect(_ kind: QueryToken.Kind, _ description: String) throws(QuerySyntaxError) {
            guard current.kind == kind else {
                throw QuerySyntaxError(column: current.column, message: "expected \(description)")
            }
            _ = advance()
        }
    }
}
