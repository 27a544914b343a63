import Foundation
import GRDB
import SearchQuery

/// Searches the public index (SPEC §4): free text through FTS5 ranked by bm25 plus engagement,
/// the `CSSearchQuery` language, or both (an item must then satisfy both).
///
/// Time is bounded however many items match: nothing is computed per match past a fixed number of
/// them (the ranking model and its measured costs: Docs/index.md, "Search").
/// - Matches are counted with early exit, up to ``countLimit`` for one word (``exactRankLimit`` for
///   several words, where each counted match costs far more, or with a query, whose condition reads
///   each item); past it ``SearchResults/total`` is a lower bound
///   (``SearchResults/totalIsLowerBound``).
/// - **Exact ranking** when at most ``exactRankLimit`` items match and each word on its own is in at
///   most ``wordRankLimit`` items (bm25 first reads every match of every word):
///   `score = boost − bm25(title 10, description 1, keywords 5)`, where `boost` is
///   `ln(1 + engagement)` rounded down to a quarter plus 0.125 (read from the item id, see
///   ``ItemRankOrder``, so no item row is read per match). FTS5's bm25 is negative, more negative
///   for a better match, so the score is higher for better matches and more engaged items; ties go
///   to the lower item id.
/// - **Tiered ranking** otherwise: item ids follow static rank (boost bucket first), which is the order
///   FTS5 walks its doclists in, so the page is taken tier by tier — every word in the title, then in
///   title or keywords, then anywhere — each in rank order, stopping as soon as it is full. The page
///   is ordered by tier, then boost, then id; `score` is a tier bonus (200, 100, 0) plus the boost.
///
/// Only the last word is a prefix (``FullTextQuery``); when it is longer than the index's prefixes
/// and is itself a word of more than ``wordRankLimit`` items, it matches whole: FTS5 would first
/// merge the matches of every word it begins.
///
/// Text with a word of a script written without spaces (`ガイド`) reads the gram index (`public_grams`,
/// ``FullTextQuery``) in place of the word index (`public_fts`), by the same statements: both have the
/// same columns and the item id as rowid. Other text reads the word index only.
///
/// With only a query, the score is the boost: items are read in id (rank) order, at most
/// `exactRankLimit + 1` of them; up to the limit they are all sorted by boost and counted exactly,
/// beyond it the first page in rank order is sorted by boost and the total is a lower bound.
///
/// On a PostgreSQL store the search reads the store's replica (``SearchSource``, ``IndexReplica``): the same
/// tables, so the same answers by construction.
package struct PublicSearch: Sendable {
    /// Results returned when no limit is given.
    package static let defaultLimit = 20
    /// The most results one search returns.
    package static let maxLimit = 1_000
    /// The most matches ranked exactly (bm25); bm25 costs about 1–3 µs per match.
    package static let exactRankLimit = 1_000
    /// The most matches of one word counted exactly (counting costs ~20 ns per match).
    package static let countLimit = 10_000
    /// The most items a word may be in for bm25 to rank (its setup reads every match of every
    /// word), and for a long last word to be matched as a prefix.
    package static let wordRankLimit = 20_000
    /// bm25 weights of title, description and keywords (the column order of `public_fts` and of `public_grams`).
    package static let columnWeights = (title: 10.0, description: 1.0, keywords: 5.0)

    /// The limits of one search (lowered by tests to reach every regime with few rows).
    package struct Limits: Sendable {
        package var exactRank: Int
        package var count: Int
        package var wordRank: Int

        /// The public defaults.
        package static let standard = Limits(
            exactRank: PublicSearch.exactRankLimit, count: PublicSearch.countLimit, wordRank: PublicSearch.wordRankLimit
        )

        /// Limits of at least 1, the count limit at least the exact one.
        package init(exactRank: Int, count: Int, wordRank: Int) {
            self.exactRank = max(exactRank, 1)
            self.count = max(count, self.exactRank)
            self.wordRank = max(wordRank, 1)
        }
    }

    private let source: SearchSource
    let limits: Limits

    /// A search over `store`'s public index (read-only: it never writes).
    package init(store: SQLiteStore) {
        self.init(source: .store(store), limits: .standard)
    }

    /// A search with other limits than the defaults.
    package init(store: SQLiteStore, limits: Limits) {
        self.init(source: .store(store), limits: limits)
    }

    /// A search over the public index `source` holds (read-only), with `limits`.
    package init(source: SearchSource, limits: Limits = .standard) {
        self.source = source
        self.limits = limits
    }

    /// The items matching `text` (free text, see ``FullTextQuery``) and `query` (a `CSSearchQuery`
    /// string, see ``PublicQuery``), best first, at most `limit` of them.
    /// - Parameter now: resolves `$time` in `query`.
    /// - Throws: ``SearchError``: a usage error for text with no word and no query, a query that
    ///   does not parse, or a limit outside `1...maxLimit`; ``SearchError/store(_:)`` when the
    ///   store cannot be read.
    package func search(_ text: String, query: String? = nil, limit: Int = defaultLimit, now: Date = Date())
        async throws(SearchError) -> SearchResults
    {
        let plan = try Plan(text: text, query: query, limit: limit, limits: limits, now: now)
        do {
            return try await source.currentStore().read { db in try plan.run(db) }
        } catch {
            throw .store(error)
        }
    }

    /// A search checked and compiled before it touches the store.
    struct Plan: Sendable {
        let text: FullTextQuery?
        let filter: PublicQuery?
        let limit: Int
        let limits: Limits

        init(text: String, query: String?, limit: Int, limits: Limits, now: Date) throws(SearchError) {
            guard (1...PublicSearch.maxLimit).contains(limit) else { throw .invalidLimit(limit) }
            let words = try FullTextQuery(text)
            self.text = words.isEmpty ? nil : words
            filter = try query.map { text throws(SearchError) in try PublicQuery(text, now: now) }
            guard self.text != nil || filter != nil else { throw .nothingToSearch }
            self.limit = limit
            self.limits = limits
        }

        static let hitColumns =
            "item.id AS id, item.unique_identifier, item.title, item.description, item.webpage_url, item.sources"

        /// The SQL that fetches the hits' columns, for ids in a page already chosen.
        func hits(_ db: Database, scores: [(id: Int64, score: Double)]) throws -> [SearchHit] {
            guard !scores.isEmpty else { return [] }
            let placeholders = databaseQuestionMarks(count: scores.count)
            var rows: [Int64: Row] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT \(Self.hitColumns) FROM public_item AS item WHERE item.id IN (\(placeholders))",
                arguments: StatementArguments(scores.map(\.id)))
            {
                rows[row["id"]] = row
            }
            return scores.compactMap { id, score in
                guard let row = rows[id] else { return nil }
                return SearchHit(
                    uniqueIdentifier: row["unique_identifier"], title: row["title"],
                    contentDescription: row["description"], webpageURL: row["webpage_url"],
                    storedSources: row["sources"] ?? "", score: score)
            }
        }
    }
}
