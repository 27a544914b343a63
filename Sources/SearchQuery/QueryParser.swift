/// Parses the `CSSearchQuery` language (SPEC §4) into a ``QueryExpression``.
///
/// Grammar: `or := and ("||" and)*`, `and := unary ("&&" unary)*`, `unary := "!" unary | primary`,
/// `primary := "(" or ")" | "InRange" "(" attribute "," value "," value ")" | attribute op value`.
/// Bounded: at most 4,096 characters and 64 levels of nesting.
public enum QueryParser {
    /// The longest query accepted.
    public static let maxLength = 4096
    /// The deepest nesting accepted.
    public static let maxDepth = 64

    /// Parses `text`.
    /// - Throws: ``QuerySyntaxError`` naming the column and the problem.
    public static func parse(_ text: String) throws(QuerySyntaxError) -> QueryExpression {
        guard text.count <= maxLength else {
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
            var left = try andExpression(depth: depth)
            while case .or = current.kind {
                _ = advance()
                left = .or(left, try andExpression(depth: depth))
            }
            return left
        }

        mutating func andExpression(depth: Int) throws(QuerySyntaxError) -> QueryExpression {
            var left = try unary(depth: depth)
            while case .and = current.kind {
                _ = advance()
                left = .and(left, try unary(depth: depth))
            }
            return left
        }

        mutating func unary(depth: Int) throws(QuerySyntaxError) -> QueryExpression {
            guard depth < QueryParser.maxDepth else {
                throw QuerySyntaxError(column: current.column, message: "nested deeper than \(QueryParser.maxDepth)")
            }
            if case .not = current.kind {
                _ = advance()
                return .not(try unary(depth: depth + 1))
            }
            return try primary(depth: depth)
        }

        mutating func primary(depth: Int) throws(QuerySyntaxError) -> QueryExpression {
            let token = advance()
            switch token.kind {
            case .open:
                let inner = try orExpression(depth: depth + 1)
                try expect(.close, "')'")
                return inner
            case .identifier(let name) where name.lowercased() == "inrange":
                try expect(.open, "'(' after InRange")
                let attribute = try attributeName()
                try expect(.comma, "','")
                let low = try value()
                try expect(.comma, "','")
                let high = try value()
                try expect(.close, "')'")
                return .inRange(attribute: attribute, low: low, high: high)
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
                return .comparison(attribute: name, op: op, value: value, modifiers: modifiers)
            default:
                throw QuerySyntaxError(column: token.column, message: "expected an attribute, '(', '!' or InRange")
            }
        }

        mutating func attributeName() throws(QuerySyntaxError) -> String {
            let token = advance()
            guard case .identifier(let name) = token.kind else {
                throw QuerySyntaxError(column: token.column, message: "expected an attribute name")
            }
            return name
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
