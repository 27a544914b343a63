import Foundation
import GRDB
import SearchQuery

/// The `CSSearchQuery` language (SPEC §4) over the public index: attribute names as in Apple's
/// `CSSearchableItemAttributeSet` and `NSUserActivity`, compiled to a parameterised SQL condition on
/// `public_item` (aliased `item`).
///
/// `keywords` is multi-valued: a comparison holds when it holds for some keyword
/// (`keywords == "tart"` matches an item whose keywords include "tart"), and `keywords != "tart"`
/// when the item has keywords and none equals "tart" (like `!=` on any attribute, an item without
/// the attribute does not match). Text comparisons are exact unless the value has `c` (case), `d`
/// (case and diacritics, e.g. `"creme"cd` matches "Crème"), `w` or `t` modifiers. Dates compare as
/// seconds since 1970 with `$time…` values or ISO 8601 strings.
package struct PublicQuery: Sendable {
    /// The SQL condition, reading `item.*` columns; user text appears only in ``arguments``.
    package let sql: String
    /// The bound values of ``sql``, in order.
    package let arguments: [QueryArgument]
    /// An index shortcut for a title-prefix comparison, if the query has one.
    let titleHint: TitlePrefixHint?
    /// A comparison of an indexed number joined by `&&` at the top level, compiled alone with the
    /// index that answers it: a rare value (`engagement >= 1000`) is found through the index.
    let numberHint: (index: String, sql: String, arguments: [QueryArgument])?
    /// An exclusive upper bound on the ids of the items the query can match, when it asks for a least
    /// engagement (`engagement > 10` joined by `&&` at the top level): ids are in rank order, so the
    /// items below that engagement come after it (see `ItemRankOrder.idBound(engagementAtLeast:)`).
    let rankBound: Int64?
    /// The `public_item` columns the condition reads.
    let columns: Set<String>
    /// The condition without the comparison an exact ``titleHint`` decides (`1` when nothing is left),
    /// with its arguments: what the rows of the hint's range must still pass.
    let residual: (sql: String, arguments: [QueryArgument])?

    /// The attributes a query may name, and the column each reads.
    package static let attributes: [String: QueryColumn] = {
        func text(_ sql: String) -> QueryColumn { QueryColumn(sql: "item." + sql, kind: .text) }
        func number(_ sql: String) -> QueryColumn { QueryColumn(sql: "item." + sql, kind: .number) }
        func date(_ sql: String) -> QueryColumn { QueryColumn(sql: "item." + sql, kind: .date) }
        return [
            "title": text("title"),
            "displayName": text("title"),
            "contentDescription": text("description"),
            "keywords": text("keywords"),
            "webpageURL": text("webpage_url"),
            "contentURL": text("webpage_url"),
            "url": text("webpage_url"),
            "uniqueIdentifier": text("unique_identifier"),
            "domainIdentifier": text("domain_identifier"),
            "bundleIdentifier": text("bundle"),
            "rating": number("rating"),
            "ratingCount": number("rating_count"),
            "engagement": number("engagement"),
            "expirationDate": date("expires_at"),
            "lastUsedDate": date("last_seen"),
            "contentModificationDate": date("last_seen"),
            "addedDate": date("published_at"),
        ]
    }()

    /// The attribute whose column holds several values, one per line.
    static let keywordsAttribute = "keywords"

    /// `item.keywords` as rows of `json_each` (column `value`): the newline-separated list is quoted
    /// with `json_quote`, whose output has a `\n` escape exactly where a newline was once every
    /// backslash of the text is first swapped for U+0001 (and swapped back in ``keywordValue``), so
    /// turning `\n` into `","` always gives a valid JSON array.
    static let keywordRows =
        #"json_each('[' || replace(json_quote(replace(item.keywords, '\', char(1))), '\n', '","') || ']')"#
    /// One keyword of ``keywordRows``.
    static let keywordValue = #"replace(keyword.value, char(1), '\')"#

    /// Parses and compiles `text`; `now` resolves `$time` values.
    /// - Throws: ``SearchError/query(_:)`` with the 1-based column of the problem: the token that
    ///   does not parse, the unknown attribute, or the value of the wrong kind.
    package init(_ text: String, now: Date = Date()) throws(SearchError) {
        do {
            let expression = try QueryParser.parse(text)
            var arguments: [QueryArgument] = []
            sql = try Self.condition(expression, now: now, arguments: &arguments)
            self.arguments = arguments
            titleHint = TitlePrefixHint(expression)
            numberHint = try Self.numberHint(expression, now: now)
            rankBound = Self.leastEngagement(expression).flatMap(ItemRankOrder.idBound(engagementAtLeast:))
            columns = Self.columns(expression)
            if let hint = titleHint, hint.isExact {
                var residualArguments: [QueryArgument] = []
                let rest = Self.removing(hint.comparison, from: expression)
                let sql = try rest.map { rest throws(QuerySyntaxError) in
                    try Self.condition(rest, now: now, arguments: &residualArguments)
                }
                residual = (sql ?? "1", residualArguments)
            } else {
                residual = nil
            }
        } catch {
            throw .query(error)
        }
    }

    /// The compiler for `columns`.
    private static func compiler(columns: [String: QueryColumn] = attributes) -> QueryCompiler {
        QueryCompiler(
            columns: columns, foldFunction: SQLiteStore.foldFunctionName,
            caseFoldFunction: SQLiteStore.caseFoldFunctionName)
    }

    private static let itemCompiler = compiler()
    private static let keywordCompiler = compiler(
        columns: [keywordsAttribute: QueryColumn(sql: keywordValue, kind: .text)])

    /// Compiles `expression`, sending comparisons of `keywords` through ``keywordRows``.
    static func condition(_ expression: QueryExpression, now: Date, arguments: inout [QueryArgument])
        throws(QuerySyntaxError) -> String
    {
        func leaf(_ compiler: QueryCompiler, _ expression: QueryExpression) throws(QuerySyntaxError) -> String {
            let (sql, leafArguments) = try compiler.compile(expression, now: now)
            arguments += leafArguments
            return sql
        }
        func someKeyword(_ expression: QueryExpression) throws(QuerySyntaxError) -> String {
            "EXISTS (SELECT 1 FROM \(keywordRows) AS keyword WHERE \(try leaf(keywordCompiler, expression)))"
        }
        return try QueryCompiler.structure(of: expression) { expression throws(QuerySyntaxError) in
            switch expression {
            case .comparison(keywordsAttribute, .notEqual, let value, let modifiers, let location) where value != .any:
                // No keyword equals the value (not: some keyword differs from it).
                let equal = QueryExpression.comparison(
                    attribute: keywordsAttribute, op: .equal, value: value, modifiers: modifiers, location: location)
                return "(item.keywords IS NOT NULL AND NOT \(try someKeyword(equal)))"
            case .comparison(keywordsAttribute, .equal, .any, _, _),
                .comparison(keywordsAttribute, .notEqual, .any, _, _):
                return try leaf(itemCompiler, expression)
            case .comparison(keywordsAttribute, _, _, _, _), .inRange(keywordsAttribute, _, _, _):
                return try someKeyword(expression)
            default:
                return try leaf(itemCompiler, expression)
            }
        }
    }

    /// The indexed number attributes and their indexes (migration v6-number-indexes).
    static let numberIndexes = ["engagement": "public_item_engagement", "rating": "public_item_rating"]

    private static func numberHint(_ expression: QueryExpression, now: Date) throws(QuerySyntaxError) -> (
        index: String, sql: String, arguments: [QueryArgument]
    )? {
        switch expression {
        case .and(let operands):
            for operand in operands {
                if let hint = try numberHint(operand, now: now) { return hint }
            }
            return nil
        case .comparison(let attribute, let op, _, _, _) where op != .notEqual:
            guard let index = numberIndexes[attribute] else { return nil }
            var arguments: [QueryArgument] = []
            return (index, try condition(expression, now: now, arguments: &arguments), arguments)
        case .inRange(let attribute, _, _, _):
            guard let index = numberIndexes[attribute] else { return nil }
            var arguments: [QueryArgument] = []
            return (index, try condition(expression, now: now, arguments: &arguments), arguments)
        default:
            return nil
        }
    }

    /// `expression` without `comparison` where it is joined by `&&` at the top level; `nil` when nothing
    /// is left.
    static func removing(_ comparison: QueryExpression, from expression: QueryExpression) -> QueryExpression? {
        if expression == comparison { return nil }
        guard case .and(let operands) = expression else { return expression }
        let rest = operands.filter { $0 != comparison }
        switch rest.count {
        case 0: return nil
        case 1: return rest[0]
        default: return .and(rest)
        }
    }

    /// The `public_item` columns `expression` reads (unknown attributes were rejected by the compiler).
    static func columns(_ expression: QueryExpression) -> Set<String> {
        switch expression {
        case .and(let operands), .or(let operands):
            return operands.reduce(into: []) { $0.formUnion(columns($1)) }
        case .not(let inner):
            return columns(inner)
        case .comparison(let attribute, _, _, _, _), .inRange(let attribute, _, _, _):
            let sql = attributes[attribute]?.sql ?? attribute
            return [sql.hasPrefix("item.") ? String(sql.dropFirst(5)) : sql]
        }
    }

    /// The least engagement of an item that matches `expression`, from the comparisons of `engagement`
    /// with a number joined by `&&` at the top level (engagement is a whole number: `> 10` is `>= 11`).
    static func leastEngagement(_ expression: QueryExpression) -> Double? {
        switch expression {
        case .and(let operands):
            return operands.compactMap(leastEngagement).max()
        case .comparison("engagement", .greater, .number(let value), _, _):
            return value.rounded(.down) + 1
        case .comparison("engagement", .greaterOrEqual, .number(let value), _, _),
            .comparison("engagement", .equal, .number(let value), _, _),
            .inRange("engagement", .number(let value), _, _):
            return value.rounded(.up)
        default:
            return nil
        }
    }

    /// ``arguments`` as GRDB statement arguments.
    var statementArguments: StatementArguments { Self.statementArguments(arguments) }

    static func statementArguments(_ arguments: [QueryArgument]) -> StatementArguments {
        StatementArguments(
            arguments.map { argument -> DatabaseValue in
                switch argument {
                case .text(let text): text.databaseValue
                case .number(let number): number.databaseValue
                }
            })
    }
}
