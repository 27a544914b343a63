import Foundation
import SearchQuery

extension PublicSearch {
    /// ``search(_:query:limit:now:)`` on a PostgreSQL store: ``PostgresSearch``'s plan, with this search's
    /// limits, run in one read-only transaction.
    func search(_ database: PostgresDatabase, text: String, query: String?, limit: Int, now: Date)
        async throws(SearchError) -> SearchResults
    {
        let search = try PostgresSearch(text, query: query, limit: limit, limits: limits, now: now)
        do throws(StoreError) {
            return try await database.readPublicIndex { reader throws(StoreError) in try await search.run(reader) }
        } catch {
            throw .store(error)
        }
    }
}

extension PostgresSearch {
    /// Runs the plan (``PublicSearch``'s, step for step) with `reader`'s statements.
    func run(_ reader: PublicIndexReader) async throws(StoreError) -> SearchResults {
        guard let text else { return try await runQueryOnly(reader) }
        // A long last prefix that is itself a common word matches whole, as on SQLite.
        var prefix = true
        if text.lastWordIsLongPrefix, let last = text.postgresPhrase(at: text.words.count - 1, prefix: false) {
            prefix = try await count(reader, last, filtered: false, upTo: limits.wordRank) <= limits.wordRank
        }
        // A word that folds to nothing is no token to FTS5, whose phrase then matches nothing.
        guard let match = text.postgresQuery(weights: nil, prefix: prefix) else {
            return SearchResults(total: 0, hits: [])
        }
        let countLimit = filter == nil && text.words.count == 1 ? limits.count : limits.exactRank
        let counted = try await count(reader, match, filtered: true, upTo: countLimit)
        if counted == 0 { return SearchResults(total: 0, hits: []) }
        let total = min(counted, countLimit + 1)
        let isLowerBound = counted > countLimit
        if counted <= limits.exactRank, try await wordsAreRankable(reader, text: text, prefix: prefix) {
            let statement = rankStatement(match)
            let scores = try await reader.rows(statement.sql, statement.values).map { row in
                (id: row[0].integer, score: row[1].double)
            }
            return SearchResults(total: total, hits: try await hits(reader, scores: scores))
        }
        return SearchResults(
            total: total, totalIsLowerBound: isLowerBound,
            hits: try await rankByTier(reader, text: text, prefix: prefix))
    }

    /// How many items match `tsquery` (and the query, when `filtered`), counting no further than `limit + 1`.
    private func count(_ reader: PublicIndexReader, _ tsquery: String, filtered: Bool, upTo limit: Int)
        async throws(StoreError) -> Int
    {
        let statement = countStatement(tsquery, filtered: filtered, upTo: limit)
        return Int(try await reader.rows(statement.sql, statement.values).first?.first?.integer ?? 0)
    }

    /// Whether each word alone is in at most `wordRank` items: SQLite's condition for exact ranking (bm25's
    /// setup reads every match of every word), kept so that both engines rank in the same regime.
    private func wordsAreRankable(_ reader: PublicIndexReader, text: FullTextQuery, prefix: Bool)
        async throws(StoreError) -> Bool
    {
        if text.words.count == 1 && filter == nil { return true }  // its matches were just counted
        for index in text.words.indices {
            guard let phrase = text.postgresPhrase(at: index, prefix: prefix) else { continue }
            if try await count(reader, phrase, filtered: false, upTo: limits.wordRank) > limits.wordRank {
                return false
            }
        }
        return true
    }

    /// The page taken tier by tier in rank (id) order, stopping once it is full, ordered by tier, then boost,
    /// then id; the score is the tier's bonus plus the boost (as on SQLite).
    private func rankByTier(_ reader: PublicIndexReader, text: FullTextQuery, prefix: Bool)
        async throws(StoreError) -> [SearchHit]
    {
        var taken: Set<Int64> = []
        var page: [(id: Int64, tier: Int, boost: Double)] = []
        for (tier, (weights, _)) in Self.tiers.enumerated() where page.count < limit {
            guard let tsquery = text.postgresQuery(weights: weights, prefix: prefix) else { break }
            let statement = tierStatement(tsquery, anyField: text.postgresQuery(weights: nil, prefix: prefix))
            for row in try await reader.rows(statement.sql, statement.values) where page.count < limit {
                let id = row[0].integer
                if taken.insert(id).inserted { page.append((id, tier, row[1].double)) }
            }
        }
        page.sort { ($0.tier, -$0.boost, $0.id) < ($1.tier, -$1.boost, $1.id) }
        return try await hits(reader, scores: page.map { ($0.id, Self.tiers[$0.tier].bonus + $0.boost) })
    }

    /// Only a query: items in rank (id) order, at most `exactRank + 1` read, as on SQLite.
    private func runQueryOnly(_ reader: PublicIndexReader) async throws(StoreError) -> SearchResults {
        guard let filter else { return SearchResults(total: 0, hits: []) }
        var rows: [(id: Int64, score: Double)] = []
        for statement in queryStatements(filter) {
            rows += try await reader.rows(statement.sql, statement.values).map { ($0[0].integer, $0[1].double) }
        }
        rows.sort { $0.id < $1.id }
        let read = Array(rows.prefix(limits.exactRank + 1))
        let complete = read.count <= limits.exactRank
        // Beyond the limit, the first page in rank order stands for the best.
        var page = complete ? read : Array(read.prefix(limit))
        page.sort { ($0.score, -$0.id) > ($1.score, -$1.id) }
        return SearchResults(
            total: read.count, totalIsLowerBound: !complete,
            hits: try await hits(reader, scores: Array(page.prefix(limit))))
    }

    /// The page's hits, in the order of `scores`, with the fields read for their ids only.
    private func hits(_ reader: PublicIndexReader, scores: [(id: Int64, score: Double)])
        async throws(StoreError) -> [SearchHit]
    {
        let items = try await reader.items(scores.map(\.id))
        return scores.compactMap { id, score in
            guard let item = items[id] else { return nil }
            return SearchHit(
                uniqueIdentifier: item.uniqueIdentifier, title: item.title, contentDescription: item.description,
                webpageURL: item.webpageURL, storedSources: item.sources, score: score)
        }
    }
}

extension PostgresValue {
    /// The value as an integer (0 when it is none).
    var integer: Int64 {
        switch self {
        case .integer(let value): value
        case .double(let value): Int64(value)
        default: 0
        }
    }

    /// The value as a number (0 when it is none).
    var double: Double {
        switch self {
        case .double(let value): value
        case .integer(let value): Double(value)
        default: 0
        }
    }
}
