import Foundation
import GRDB
import SearchQuery

extension PublicSearch.Plan {
    /// The tiers of a large match set, best first: the columns every word must be in, and the
    /// score bonus of the tier (above any boost: `ln(1 + Int.max)` is under 44).
    static let tiers: [(columns: [String]?, bonus: Double)] = [
        (["title"], 200), (["title", "keywords"], 100), (nil, 0),
    ]

    /// The full-text index the text is looked up in: the word index, or the gram index for words of
    /// scripts written without spaces (``FullTextQuery``); both are read the same way.
    var fullText: String { (text?.index ?? .words).table }

    /// The full-text index joined with the items.
    var joined: String { "\(fullText) JOIN public_item AS item ON item.id = \(fullText).rowid" }

    func run(_ db: Database) throws -> SearchResults {
        guard let text, !text.isEmpty else { return try runQueryOnly(db) }
        // A long last prefix that is itself a common word would make FTS5 merge the matches of
        // every word it begins before the first one comes out: it matches whole instead.
        var prefix = true
        if text.lastWordIsLongPrefix {
            let last = text.phrase(at: text.words.count - 1, prefix: false)
            prefix = try count(db, match: last, filtered: false, upTo: limits.wordRank) <= limits.wordRank
        }
        guard let match = text.matchExpression(columns: nil, prefix: prefix) else { return try runQueryOnly(db) }
        // One word's matches are counted at ~20 ns each; with several words, FTS5 steps through the
        // commoner word's matches between two counted ones (~1 µs each), and a query's condition
        // reads every item counted: count fewer then.
        let countLimit = filter == nil && text.words.count == 1 ? limits.count : limits.exactRank
        let counted = try count(db, match: match, filtered: true, upTo: countLimit)
        if counted == 0 { return SearchResults(total: 0, hits: []) }
        let total = min(counted, countLimit + 1)
        let isLowerBound = counted > countLimit
        if counted <= limits.exactRank, try wordsAreRankable(db, text: text, prefix: prefix) {
            return SearchResults(total: total, hits: try rankAll(db, match: match))
        }
        return SearchResults(
            total: total, totalIsLowerBound: isLowerBound, hits: try rankByTier(db, text: text, prefix: prefix))
    }

    /// The condition on a `MATCH` of `match` (and the query, when `filtered`), with its arguments.
    private func condition(match: String, filtered: Bool = true) -> (sql: String, arguments: StatementArguments) {
        guard filtered, let filter else { return ("\(fullText) MATCH ?", [match]) }
        let (sql, arguments) = filterCondition(filter, id: "\(fullText).rowid")
        return ("\(fullText) MATCH ? AND \(sql)", [match] + arguments)
    }

    /// The query's condition, and its rank bound on the item id `id` (FTS5 and the table both seek to
    /// it: the scan in id order ends where the items below the query's least engagement begin).
    private func filterCondition(_ filter: PublicQuery, id: String) -> (sql: String, arguments: StatementArguments) {
        filterCondition(filter, id: id, sql: filter.sql, arguments: filter.arguments)
    }

    /// `sql` (part of `filter`'s condition) with `filter`'s rank bound on `id`.
    private func filterCondition(_ filter: PublicQuery, id: String, sql: String, arguments: [QueryArgument])
        -> (sql: String, arguments: StatementArguments)
    {
        let statementArguments = PublicQuery.statementArguments(arguments)
        guard let bound = filter.rankBound else { return (sql, statementArguments) }
        return ("\(id) < ? AND \(sql)", [bound] + statementArguments)
    }

    /// How many items match, counting no further than `limit + 1`: FTS5 reads matches lazily, so
    /// this stays cheap however common the words.
    private func count(_ db: Database, match: String, filtered: Bool, upTo limit: Int) throws -> Int {
        let (condition, arguments) = condition(match: match, filtered: filtered)
        // Counting needs the items only for a query's condition: FTS5 alone counts far faster.
        let from = filtered && filter != nil ? joined : fullText
        return try Int.fetchOne(
            db, sql: "SELECT count(*) FROM (SELECT 1 FROM \(from) WHERE \(condition) LIMIT ?)",
            arguments: arguments + [limit + 1]) ?? 0
    }

    /// Whether bm25's setup is cheap: it reads every match of each word (not only the items that
    /// have all of them), so each word alone must be in at most `wordRank` items.
    private func wordsAreRankable(_ db: Database, text: FullTextQuery, prefix: Bool) throws -> Bool {
        if text.words.count == 1 && filter == nil { return true }  // its matches were just counted
        for index in text.words.indices {
            let phrase = text.phrase(at: index, prefix: prefix)
            if try count(db, match: phrase, filtered: false, upTo: limits.wordRank) > limits.wordRank { return false }
        }
        return true
    }

    /// Every match ranked by boost − bm25 (the boost read from the id); the hits' text is read for
    /// the page only.
    private func rankAll(_ db: Database, match: String) throws -> [SearchHit] {
        let (condition, arguments) = condition(match: match)
        let weights = PublicSearch.columnWeights
        let bm25 = "bm25(\(fullText), \(weights.title), \(weights.description), \(weights.keywords))"
        let score = "\(ItemRankOrder.boostSQL(id: "\(fullText).rowid")) - \(bm25)"
        let from = filter == nil ? fullText : joined
        let scores = try Row.fetchAll(
            db,
            sql: """
                SELECT \(fullText).rowid AS id, \(score) AS score FROM \(from) WHERE \(condition)
                ORDER BY score DESC, id LIMIT ?
                """,
            arguments: arguments + [limit]
        ).map { row in (id: row["id"] as Int64, score: row["score"] as Double) }
        return try hits(db, scores: scores)
    }

    /// The page taken tier by tier in rank (id) order, stopping once it is full. Each tier's
    /// matches include the earlier tiers', so `limit` rows of a tier always complete the page.
    private func rankByTier(_ db: Database, text: FullTextQuery, prefix: Bool) throws -> [SearchHit] {
        var taken: Set<Int64> = []
        var page: [(id: Int64, tier: Int, boost: Double)] = []
        for (tier, (columns, _)) in Self.tiers.enumerated() where page.count < limit {
            guard let match = text.matchExpression(columns: columns, prefix: prefix) else { break }
            let (condition, arguments) = condition(match: match)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(fullText).rowid AS id, item.boost AS boost FROM \(joined) WHERE \(condition)
                    ORDER BY \(fullText).rowid LIMIT ?
                    """,
                arguments: arguments + [limit])
            for row in rows where page.count < limit {
                let id: Int64 = row["id"]
                if taken.insert(id).inserted { page.append((id, tier, row["boost"])) }
            }
        }
        page.sort { ($0.tier, -$0.boost, $0.id) < ($1.tier, -$1.boost, $1.id) }
        return try hits(db, scores: page.map { ($0.id, Self.tiers[$0.tier].bonus + $0.boost) })
    }

    /// Whether at most ``Limits/count`` items pass `hint`, counted on its index alone (no row is read).
    private func isRare(_ hint: (index: String, sql: String, arguments: [QueryArgument]), _ db: Database) throws
        -> Bool
    {
        let counted =
            try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM (SELECT 1 FROM public_item AS item INDEXED BY \(hint.index) "
                    + "WHERE \(hint.sql) LIMIT ?)",
                arguments: PublicQuery.statementArguments(hint.arguments) + [limits.count + 1]) ?? 0
        return counted <= limits.count
    }

    /// Only a query: items in rank (id) order, at most `exactRank + 1` read; see ``PublicSearch``.
    private func runQueryOnly(_ db: Database) throws -> SearchResults {
        guard let filter else { return SearchResults(total: 0, hits: []) }
        let (condition, arguments) = filterCondition(filter, id: "item.id")
        let cap: StatementArguments = [limits.exactRank + 1]
        let rows: [Row]
        let readsRankColumnsOnly = filter.columns.isSubset(of: SQLiteStore.rankIndexColumns)
        // A condition on the rank index's columns with an engagement floor is answered from that index
        // alone, in id order up to the floor's bound at most (reading the rows through the engagement index
        // instead costs a look-up per row). Otherwise the rarer shortcut first: a
        // number condition few items pass, then a title prefix.
        if readsRankColumnsOnly, filter.rankBound != nil {
            rows = try Row.fetchAll(
                db,
                sql: "SELECT item.id AS id, item.boost AS boost FROM public_item AS item INDEXED BY public_item_rank "
                    + "WHERE \(condition) ORDER BY item.id LIMIT ?",
                arguments: arguments + cap)
        } else if let hint = filter.numberHint, try isRare(hint, db) {
            // Few items pass the number condition: read them through its index, then order them.
            rows = try Row.fetchAll(
                db,
                sql: "SELECT item.id AS id, item.boost AS boost FROM public_item AS item INDEXED BY \(hint.index) "
                    + "WHERE \(condition) ORDER BY item.id LIMIT ?",
                arguments: arguments + cap)
        } else if let hint = filter.titleHint {
            // The items whose folded title starts with the hint's first two letters, in id order from the
            // index, whose folded prefix is checked on the index entry before the row is read; then the rows
            // whose folded title was never filled in (written by something other than the publisher),
            // which the condition alone decides. Both in id order, merged.
            let range = hint.foldedRange
            let start = String(hint.word.utf8.prefix(SQLiteStore.titleStartLength)) ?? hint.word
            let from =
                "SELECT item.id AS id, item.boost AS boost FROM public_item AS item "
                + "INDEXED BY public_item_title_start WHERE \(SQLiteStore.titleStartSQL) = ?"
            // When the range decides the title comparison exactly, the rest of the query may need no row
            // at all: the index holds the id and the boost.
            let (rangeCondition, rangeArguments) =
                filter.residual.map { filterCondition(filter, id: "item.id", sql: $0.sql, arguments: $0.arguments) }
                ?? (condition, arguments)
            var merged = try Row.fetchAll(
                db,
                sql: "\(from) AND item.title_fold >= ? AND item.title_fold < ? AND \(rangeCondition) "
                    + "ORDER BY item.id LIMIT ?",
                arguments: [start, range.lower, range.upper] + rangeArguments + cap)
            merged += try Row.fetchAll(
                db, sql: "\(from) AND \(condition) ORDER BY item.id LIMIT ?", arguments: [""] + arguments + cap)
            merged.sort { ($0["id"] as Int64) < ($1["id"] as Int64) }
            rows = Array(merged.prefix(limits.exactRank + 1))
        } else {
            // Many items pass (or nothing is indexed): in rank order the first matches come early. A
            // condition on the rank index's numbers alone is answered from its narrow entries.
            let index = readsRankColumnsOnly ? "INDEXED BY public_item_rank " : ""
            rows = try Row.fetchAll(
                db,
                sql: "SELECT item.id AS id, item.boost AS boost FROM public_item AS item \(index)WHERE \(condition) "
                    + "ORDER BY item.id LIMIT ?",
                arguments: arguments + cap)
        }
        var page = rows.map { row in (id: row["id"] as Int64, score: row["boost"] as Double) }
        let complete = rows.count <= limits.exactRank
        // Beyond the limit, the first page in rank order stands for the best.
        if !complete { page = Array(page.prefix(limit)) }
        page.sort { ($0.score, -$0.id) > ($1.score, -$1.id) }
        return SearchResults(
            total: rows.count, totalIsLowerBound: !complete, hits: try hits(db, scores: Array(page.prefix(limit))))
    }
}
