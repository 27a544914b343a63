extension QueryCompiler {
    /// Where a part of a condition stands, for the parentheses it needs.
    private enum Context {
        /// The whole condition, which a caller may put next to its own SQL.
        case whole
        /// An operand of an `AND` list.
        case andOperand
        /// An operand of an `OR` list.
        case orOperand
        /// The operand of a `NOT`.
        case notOperand
    }

    /// The SQL of `expression`'s `&&`, `||` and `!`, each comparison written by `leaf` (in the order
    /// the comparisons appear, so that their bound arguments line up).
    ///
    /// SQLite's parser keeps a stack of 100 entries, and every level of parentheses still open takes
    /// a few: so a chain of `&&` (`||`) is one flat `AND` (`OR`) list, an `AND` list inside an `OR`
    /// list goes without parentheses (`AND` binds tighter), and `NOT` takes none of its own (it binds
    /// looser only than the comparisons, which come in parentheses). The SQL then nests at most as
    /// deep as the query's parentheses and `!`, and stays one expression in parentheses (or a `NOT`
    /// of one) that a caller can join with `AND`.
    package static func structure(
        of expression: QueryExpression, leaf: (QueryExpression) throws(QuerySyntaxError) -> String
    ) throws(QuerySyntaxError) -> String {
        try structure(of: expression, in: .whole, leaf: leaf)
    }

    private static func structure(
        of expression: QueryExpression, in context: Context,
        leaf: (QueryExpression) throws(QuerySyntaxError) -> String
    ) throws(QuerySyntaxError) -> String {
        switch expression {
        case .and(let operands):
            let sql = try list(operands, "AND", .andOperand, leaf: leaf)
            return context == .orOperand ? sql : "(" + sql + ")"
        case .or(let operands):
            return "(" + (try list(operands, "OR", .orOperand, leaf: leaf)) + ")"
        case .not(let inner):
            return "NOT " + (try structure(of: inner, in: .notOperand, leaf: leaf))
        case .comparison, .inRange:
            return try leaf(expression)
        }
    }

    private static func list(
        _ operands: [QueryExpression], _ joiner: String, _ context: Context,
        leaf: (QueryExpression) throws(QuerySyntaxError) -> String
    ) throws(QuerySyntaxError) -> String {
        var parts: [String] = []
        parts.reserveCapacity(operands.count)
        for operand in operands { parts.append(try structure(of: operand, in: context, leaf: leaf)) }
        return parts.joined(separator: " \(joiner) ")
    }
}
