import Foundation
import GRDB
import SearchQuery
import Store

/// Searches the public index (SPEC §4): free text through FTS5 ranked by bm25 plus engagement,
/// the `CSSearchQuery` language, or both (an item must then satisfy both).
///
/// Ranking: `score = boost − bm25(title 10, description 1, keywords 5)`. FTS5's bm25 is negative,
/// more negative for a better match, so the score is higher for better matches and for more
/// engaged items (`boost` is the publisher's engagement bonus); ties go to the lower item id.
/// With only a query, the score is the boost.
///
/// Cost is bounded: a free-text search first counts its matches; when they are at most
/// ``rankBudget`` it ranks every match (exact). Beyond that — a word or two-letter prefix found in
/// a large part of the index — it ranks the ``rankBudget`` most recently published matches (the
/// highest ids) and returns the best of those, so time stays flat however common the word is;
/// ``SearchResults/total`` is always the exact number of matches.
public struct PublicSearch: Sendable {
    /// Results returned when no limit is given.
    public static let defaultLimit = 20
    /// The most results one search returns.
    public static let maxLimit = 1_000
    /// The most matches ranked by bm25 in one search.
    public static let rankBudget = 5_000
    /// bm25 weights of title, description and keywords (the column order of `public_fts`).
    public static let columnWeights = (title: 10.0, description: 1.0, keywords: 5.0)

    private let store: Store

    /// A search over `store`'s public index (read-only: it never writes).
    public init(store: Store) {
        self.store = store
    }

    /// The items matching `text` (free text, see ``FullTextQuery``) and `query` (a `CSSearchQuery`
    /// string, see ``PublicQuery``), best first, at most `limit` of them.
    /// - Parameter now: resolves `$time` in `query`.
    /// - Throws: ``SearchError``: a usage error for text with no word and no query, a query that
    ///   does not parse, or a limit outside `1...maxLimit`; ``SearchError/store(_:)`` when the
    ///   store cannot be read.
    public func search(_ text: String, query: String? = nil, limit: Int = defaultLimit, now: Date = Date())
        async throws(SearchError) -> SearchResults
    {
        let plan = try Plan(text: text, query: query, limit: limit, now: now)
        do {
            return try await store.read { db in try plan.run(db) }
        } catch {
            throw .store(error)
        }
    }

    /// A search checked and compiled before it touches the store.
    struct Plan: Sendable {
        let match: String?
        let filter: PublicQuery?
        let limit: Int

        init(text: String, query: String?, limit: Int, now: Date) throws(SearchError) {
            guard (1...PublicSearch.maxLimit).contains(limit) else { throw .invalidLimit(limit) }
            match = try FullTextQuery(text).matchExpression
            filter = try query.map { text throws(SearchError) in try PublicQuery(text, now: now) }
            guard match != nil || filter != nil else { throw .nothingToSearch }
            self.limit = limit
        }

        static let hitColumns =
            "item.unique_identifier, item.title, item.description, item.webpage_url, item.sources"

        func run(_ db: Database) throws -> SearchResults {
            guard let match else { return try runQueryOnly(db) }
            var condition = "public_fts MATCH ?"
            var arguments: StatementArguments = [match]
            if let filter {
                condition += " AND \(filter.sql)"
                arguments += filter.statementArguments
            }
            let from = "public_fts JOIN public_item AS item ON item.id = public_fts.rowid WHERE \(condition)"
            // Counting needs the items only for a query's condition: FTS5 alone counts far faster.
            let countFrom = filter == nil ? "public_fts WHERE \(condition)" : from
            let budget = PublicSearch.rankBudget
            // How many match, counting no further than the budget: cheap for common words.
            let probe =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM (SELECT 1 FROM \(countFrom) LIMIT ?)",
                    arguments: arguments + [budget + 1]) ?? 0
            if probe == 0 { return SearchResults(total: 0, hits: []) }
            let total =
                probe <= budget
                ? probe : (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(countFrom)", arguments: arguments) ?? 0)
            let weights = PublicSearch.columnWeights
            let score = "item.boost - bm25(public_fts, \(weights.title), \(weights.description), \(weights.keywords))"
            // Over budget, only the most recent `budget` matches are ranked (see the type's doc).
            let candidates =
                probe <= budget
                ? from : "\(from) ORDER BY public_fts.rowid DESC LIMIT \(budget)"
            let sql = """
                SELECT * FROM (SELECT \(Self.hitColumns), \(score) AS score, item.id AS id FROM \(candidates))
                ORDER BY score DESC, id LIMIT ?
                """
            return SearchResults(total: total, hits: try hits(db, sql: sql, arguments: arguments + [limit]))
        }

        private func runQueryOnly(_ db: Database) throws -> SearchResults {
            guard let filter else { return SearchResults(total: 0, hits: []) }
            let total =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM public_item AS item WHERE \(filter.sql)",
                    arguments: filter.statementArguments) ?? 0
            let sql = """
                SELECT \(Self.hitColumns), item.boost AS score FROM public_item AS item WHERE \(filter.sql)
                ORDER BY score DESC, item.id LIMIT ?
                """
            return SearchResults(
                total: total, hits: try hits(db, sql: sql, arguments: filter.statementArguments + [limit]))
        }

        private func hits(_ db: Database, sql: String, arguments: StatementArguments) throws -> [SearchHit] {
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let sources: String = row["sources"] ?? ""
                return SearchHit(
                    uniqueIdentifier: row["unique_identifier"], title: row["title"],
                    contentDescription: row["description"], webpageURL: row["webpage_url"],
                    sources: sources.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
                    score: row["score"])
            }
        }
    }
}
