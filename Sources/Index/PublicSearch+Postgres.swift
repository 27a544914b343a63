import Foundation
import SearchQuery
import Store

/// A search of the public index compiled for a PostgreSQL store: one statement and its arguments.
///
/// It answers as ``PublicSearch`` does on SQLite (Docs/postgres.md, "Search on PostgreSQL"): the same
/// items match, free text through the item's full-text vector (``FullTextVector``, the gram vector for
/// text with a word of an unspaced script) and the query through the same `CSSearchQuery` compiler in its
/// PostgreSQL dialect. With free text, the score is the item's boost (read from its id, as SQLite's exact
/// ranking reads it) plus `ts_rank` with the weights of the fields scaled as bm25's
/// (``PublicSearch/columnWeights``): title 1, keywords 0.5, description 0.1, times ``rankScale``. bm25
/// and `ts_rank` weigh a word's rarity and the field's length differently, so two matches of different
/// strength may come in another order; the tiers of fields, and the boost between equal matches, agree.
/// With only a query, the score is the boost. Ties go to the lower id. Every match is ranked and
/// counted: SQLite's tiers and count limits, which bound the time of a search with very many matches,
/// have no counterpart here yet. ``PublicSearch`` runs it on a PostgreSQL store
/// (`PostgresDatabase.searchPublicIndex`).
package struct PostgresSearch: Sendable {
    /// The statement, reading `public_item AS item`; its columns are the item's id, unique identifier,
    /// score and the number of items that match (all of them, not only the page), best first. User text
    /// appears only in ``arguments``.
    package let sql: String
    /// The values of `$1`, `$2`… in order.
    package let arguments: [QueryArgument]

    /// How much `ts_rank` (at most about 0.1 per matching word) weighs against the boost (a quarter per
    /// bucket): a title match outweighs a few buckets of engagement, as bm25 with weight 10 does.
    static let rankScale = 100.0

    /// Compiles a search of `text` and `query` for at most `limit` items.
    /// - Throws: ``SearchError`` as ``PublicSearch/search(_:query:limit:now:)`` does for the same input.
    package init(_ text: String, query: String?, limit: Int = PublicSearch.defaultLimit, now: Date = Date())
        throws(SearchError)
    {
        guard (1...PublicSearch.maxLimit).contains(limit) else { throw .invalidLimit(limit) }
        let words = try FullTextQuery(text)
        let expression: QueryExpression?
        do {
            expression = try query.map { text throws(QuerySyntaxError) in try QueryParser.parse(text) }
        } catch {
            throw .query(error)
        }
        guard !words.isEmpty || expression != nil else { throw .nothingToSearch }
        var arguments: [QueryArgument] = []
        var conditions: [String] = []
        var score = "item.boost"
        if !words.isEmpty {
            // A word that folds to nothing is no token to FTS5, whose phrase then matches nothing.
            let column = words.index == .grams ? "item.search_grams" : "item.search_vector"
            let tsquery = words.postgresQuery
            arguments.append(.text(tsquery ?? ""))
            conditions.append(tsquery == nil ? "FALSE" : "\(column) @@ $1::tsquery")
            let weights = PublicSearch.columnWeights
            let scale = weights.title
            let array = "'{0, \(weights.keywords / scale), \(weights.description / scale), 1}'"
            score =
                "\(ItemRankOrder.boostSQL(id: "item.id")) + \(Self.rankScale) * "
                + "ts_rank(\(array), coalesce(\(column), ''), $1::tsquery)"
        }
        if let expression {
            var queryArguments: [QueryArgument] = []
            do {
                conditions.append(
                    try PublicQuery.condition(
                        expression, now: now, dialect: .postgres, boundBefore: arguments.count,
                        arguments: &queryArguments))
                arguments += queryArguments
            } catch {
                throw .query(error)
            }
        }
        // The limit is a number checked above, not text from the user.
        sql = """
            SELECT item.id, item.unique_identifier, \(score) AS score, count(*) OVER () AS total
            FROM public_item AS item
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY score DESC, item.id LIMIT \(limit)
            """
        self.arguments = arguments
    }

    /// ``arguments`` as the store binds them.
    package var values: [PostgresValue] {
        arguments.map { argument in
            switch argument {
            case .text(let text): .text(text)
            case .number(let number): .double(number)
            }
        }
    }
}

extension PublicSearch {
    /// ``search(_:query:limit:now:)`` on a PostgreSQL store: ``PostgresSearch``'s statement, run by the
    /// store with the page's text read in the same statement. Every match is counted, so the total is
    /// never a lower bound.
    func search(_ database: PostgresDatabase, text: String, query: String?, limit: Int, now: Date)
        async throws(SearchError) -> SearchResults
    {
        let search = try PostgresSearch(text, query: query, limit: limit, now: now)
        let page: PublicSearchPage
        do {
            page = try await database.searchPublicIndex(search.sql, arguments: search.values)
        } catch {
            throw .store(error)
        }
        return SearchResults(
            total: page.total,
            hits: page.rows.map { row in
                SearchHit(
                    uniqueIdentifier: row.uniqueIdentifier, title: row.title, contentDescription: row.description,
                    webpageURL: row.webpageURL, storedSources: row.sources, score: row.score)
            })
    }
}
