import Foundation
import SearchQuery

/// A `CSSearchQuery` compiled for a PostgreSQL search (``PostgresSearch``): its condition in the PostgreSQL
/// dialect, and the shortcuts ``PublicQuery`` finds for SQLite (Docs/index.md, "Search": a query alone),
/// which PostgreSQL's indexes answer alike.
struct PostgresFilter: Sendable {
    /// The condition, reading `item.*` columns, with the query's rank bound; its arguments are `$1`…
    let condition: String
    let arguments: [QueryArgument]
    /// The index shortcut for a title-prefix comparison, if the query has one.
    let titleHint: TitlePrefixHint?
    /// What the rows of ``titleHint``'s range must still pass when the hint is exact (``PublicQuery``'s
    /// `residual`), with the rank bound, compiled for PostgreSQL; `nil` otherwise.
    let residual: (condition: String, arguments: [QueryArgument])?
    /// Whether the condition reads only columns of the rank index (`public_item_rank`) and bounds the ids.
    let readsRankIndexWithBound: Bool

    /// Parses and compiles `text`; `now` resolves `$time` values.
    /// - Throws: ``SearchError/query(_:)`` as ``PublicQuery/init(_:now:)`` does.
    init(_ text: String, now: Date) throws(SearchError) {
        do {
            let expression = try QueryParser.parse(text)
            let bound = PublicQuery.leastEngagement(expression).flatMap(ItemRankOrder.idBound(engagementAtLeast:))
            // The bound is a number the search computes, written into the SQL.
            func bounded(_ sql: String) -> String { bound.map { "item.id < \($0) AND (\(sql))" } ?? "(\(sql))" }
            var arguments: [QueryArgument] = []
            condition = bounded(
                try PublicQuery.condition(expression, now: now, dialect: .postgres, arguments: &arguments))
            self.arguments = arguments
            titleHint = TitlePrefixHint(expression)
            readsRankIndexWithBound =
                bound != nil && PublicQuery.columns(expression).isSubset(of: Store.rankIndexColumns)
            if let hint = titleHint, hint.isExact {
                var residualArguments: [QueryArgument] = []
                let rest = try PublicQuery.removing(hint.comparison, from: expression).map {
                    rest throws(QuerySyntaxError) in
                    try PublicQuery.condition(rest, now: now, dialect: .postgres, arguments: &residualArguments)
                }
                residual = (bounded(rest ?? "TRUE"), residualArguments)
            } else {
                residual = nil
            }
        } catch {
            throw .query(error)
        }
    }
}
