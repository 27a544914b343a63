import Foundation
import SearchQuery

/// A search of the public index compiled for a PostgreSQL store: the statements of each step of
/// ``PublicSearch``'s plan, run by ``run(_:)`` in one read-only transaction.
///
/// It answers as ``PublicSearch`` does on SQLite (Docs/postgres.md, "Search on PostgreSQL"), with the same
/// limits and regimes: the same items match, free text through the item's full-text vector
/// (``FullTextVector``, the gram vector for text with a word of an unspaced script) and the query through
/// the same `CSSearchQuery` compiler in its PostgreSQL dialect; matches are counted with early exit
/// (`LIMIT` in a subquery) and the total is a lower bound past the same limits; the tiers (every word in
/// the title, in title or keywords, anywhere: `tsquery` weight labels `A` and `AC`) each take the page in
/// rank (id) order, `ORDER BY id LIMIT n`; a query alone reads at most `exactRank + 1` items in rank order.
/// Only **exact ranking** differs: the score is the item's boost (read from its id, as SQLite's exact
/// ranking reads it) plus `ts_rank` with the weights of the fields scaled as bm25's
/// (``PublicSearch/columnWeights``): title 1, keywords 0.5, description 0.1, times ``rankScale``. bm25 and
/// `ts_rank` weigh a word's rarity and the field's length differently, so two matches of different strength
/// may come in another order; the tiers of fields, and the boost between equal matches, agree.
///
/// Which index a statement reads is the planner's choice, from the statistics `ANALYZE` keeps of the
/// vectors' lexemes: a rare word through its GIN index (then the few matches sorted by id), a common one
/// by walking the primary key in id order until the `LIMIT` is reached.
package struct PostgresSearch: Sendable {
    /// The free text, when there is any.
    let text: FullTextQuery?
    /// The query, compiled for PostgreSQL, and its shortcuts.
    let filter: PostgresFilter?
    let limit: Int
    let limits: PublicSearch.Limits

    /// How much `ts_rank` (at most about 0.1 per matching word) weighs against the boost (a quarter per
    /// bucket): a title match outweighs a few buckets of engagement, as bm25 with weight 10 does.
    static let rankScale = 100.0

    /// The tiers of a large match set, best first: the fields every word must be in, and the score bonus of
    /// the tier (as SQLite's, ``PublicSearch/Plan/tiers``).
    static let tiers: [(weights: PostgresWeights?, bonus: Double)] = [
        (.title, 200), (.titleOrKeywords, 100), (nil, 0),
    ]

    /// Compiles a search of `text` and `query` for at most `limit` items.
    /// - Throws: ``SearchError`` as ``PublicSearch/search(_:query:limit:now:)`` does for the same input.
    package init(
        _ text: String, query: String?, limit: Int = PublicSearch.defaultLimit,
        limits: PublicSearch.Limits = .standard, now: Date = Date()
    ) throws(SearchError) {
        guard (1...PublicSearch.maxLimit).contains(limit) else { throw .invalidLimit(limit) }
        let words = try FullTextQuery(text)
        filter = try query.map { query throws(SearchError) in try PostgresFilter(query, now: now) }
        guard !words.isEmpty || filter != nil else { throw .nothingToSearch }
        self.text = words.isEmpty ? nil : words
        self.limit = limit
        self.limits = limits
    }

    /// Every statement the plan may run, with its arguments: for each way the last word may match (a prefix
    /// or whole), the counts, the exact ranking and the tiers; the query's own statements.
    package var statements: [(sql: String, arguments: [QueryArgument])] {
        var statements: [PostgresStatement] = []
        if let text {
            for prefix in [true, false] {
                for weights in Self.tiers.map(\.weights) {
                    guard let tsquery = text.postgresQuery(weights: weights, prefix: prefix) else { continue }
                    statements.append(
                        tierStatement(tsquery, anyField: text.postgresQuery(weights: nil, prefix: prefix)))
                }
                guard let match = text.postgresQuery(weights: nil, prefix: prefix) else { continue }
                statements += [
                    countStatement(match, filtered: true, upTo: limits.count), rankStatement(match),
                    countStatement(match, filtered: false, upTo: limits.wordRank),
                ]
                statements += text.words.indices.compactMap { index in
                    text.postgresPhrase(at: index, prefix: prefix).map {
                        countStatement($0, filtered: false, upTo: limits.wordRank)
                    }
                }
            }
        }
        if let filter { statements += queryStatements(filter) }
        return statements.map { ($0.sql, $0.arguments) }
    }

    /// The vector column the text is looked up in: the gram vector for a word of an unspaced script.
    var column: String { text?.index == .grams ? "item.search_grams" : "item.search_vector" }

    /// The statement that counts the items matching `tsquery` (and the query, when `filtered`), reading no
    /// further than `limit + 1` of them.
    func countStatement(_ tsquery: String, filtered: Bool, upTo limit: Int) -> PostgresStatement {
        var statement = PostgresStatement(filter: filtered ? filter : nil)
        let match = "\(column) @@ \(statement.bind(.text(tsquery)))::tsquery"
        statement.sql =
            "SELECT count(*) FROM (SELECT 1 FROM public_item AS item WHERE \(statement.conditions(match)) "
            + "LIMIT \(limit + 1)) AS matched"
        return statement
    }

    /// The statement that ranks every match of `tsquery` (and the query) by boost plus `ts_rank` and returns
    /// the page's ids and scores, best first.
    func rankStatement(_ tsquery: String) -> PostgresStatement {
        var statement = PostgresStatement(filter: filter)
        let value = "\(statement.bind(.text(tsquery)))::tsquery"
        let weights = PublicSearch.columnWeights
        let array = "'{0, \(weights.keywords / weights.title), \(weights.description / weights.title), 1}'"
        let score =
            "\(ItemRankOrder.boostSQL(id: "item.id")) + \(Self.rankScale) * "
            + "ts_rank(\(array), coalesce(\(column), ''), \(value))"
        statement.sql = """
            SELECT item.id, \(score) AS score FROM public_item AS item
            WHERE \(statement.conditions("\(column) @@ \(value)")) ORDER BY score DESC, item.id LIMIT \(limit)
            """
        return statement
    }

    /// The statement that reads the first `limit` matches of `tsquery` (and the query) in rank (id) order:
    /// their ids and boosts. A tier's `tsquery` (weight labels) is joined with `match`, the same words in any
    /// field: the planner estimates a labelled lexeme as common as the lexeme anywhere, and with both
    /// conditions it reckons the tier rarer (as it is: a title holds few of an item's words), so that a
    /// sparse tier is read through the GIN index rather than by a long walk in id order.
    func tierStatement(_ tsquery: String, anyField: String? = nil) -> PostgresStatement {
        var statement = PostgresStatement(filter: filter)
        var match = "\(column) @@ \(statement.bind(.text(tsquery)))::tsquery"
        if let any = anyField, any != tsquery { match += " AND \(column) @@ \(statement.bind(.text(any)))::tsquery" }
        statement.sql = """
            SELECT item.id, item.boost FROM public_item AS item WHERE \(statement.conditions(match))
            ORDER BY item.id LIMIT \(limit)
            """
        return statement
    }

    /// The statements that read the items matching `filter` alone in rank (id) order, at most
    /// `exactRank + 1` each (their ids and boosts; together in id order, the first `exactRank + 1` are those
    /// of one statement over the whole condition). A title prefix reads the title index's range of its
    /// folded prefix, then the items whose folded title was never filled in, as on SQLite; any other
    /// condition is one statement, whose index (the rank index for numbers, a number's own index when few
    /// items pass, the primary key in id order) the planner chooses from its statistics.
    func queryStatements(_ filter: PostgresFilter) -> [PostgresStatement] {
        let cap = limits.exactRank + 1
        let select = "SELECT item.id, item.boost FROM public_item AS item WHERE"
        guard let hint = filter.titleHint, !filter.readsRankIndexWithBound else {
            var statement = PostgresStatement(filter: filter)
            statement.sql = "\(select) \(statement.conditions("TRUE")) ORDER BY item.id LIMIT \(cap)"
            return [statement]
        }
        let range = hint.foldedRange
        let start = String(hint.word.utf8.prefix(Store.titleStartLength)) ?? hint.word
        // When the range decides the title comparison exactly, only what is left of the query is checked.
        var inRange = PostgresStatement(
            condition: filter.residual?.condition ?? filter.condition,
            arguments: filter.residual?.arguments ?? filter.arguments)
        let prefix = "substr(item.title_fold, 1, 2) = \(inRange.bind(.text(start)))"
        let bounds =
            "item.title_fold >= \(inRange.bind(.text(range.lower))) AND item.title_fold < \(inRange.bind(.text(range.upper)))"
        inRange.sql = "\(select) \(inRange.conditions("\(prefix) AND \(bounds)")) ORDER BY item.id LIMIT \(cap)"
        var unfolded = PostgresStatement(filter: filter)
        unfolded.sql =
            "\(select) \(unfolded.conditions("substr(item.title_fold, 1, 2) = ''")) ORDER BY item.id LIMIT \(cap)"
        return [inRange, unfolded]
    }
}

/// A statement of a search and its arguments: the query's condition first (its arguments are `$1`…), then
/// what the statement binds after them. Numbers the search computes (limits, id bounds) are written into
/// the SQL; text only ever as an argument.
struct PostgresStatement: Sendable {
    var sql = ""
    var arguments: [QueryArgument] = []
    /// The query's condition (with its rank bound), if the statement has one.
    private var condition: String?

    /// A statement with `condition` (whose arguments are `arguments`), or none.
    init(condition: String?, arguments: [QueryArgument] = []) {
        self.condition = condition
        self.arguments = arguments
    }

    /// A statement with the query's condition, if there is a query.
    init(filter: PostgresFilter?) {
        self.init(condition: filter?.condition, arguments: filter?.arguments ?? [])
    }

    /// Adds `value` as the next argument and returns its placeholder.
    mutating func bind(_ value: QueryArgument) -> String {
        arguments.append(value)
        return "$\(arguments.count)"
    }

    /// `sql` joined with the query's condition by `AND`.
    func conditions(_ sql: String) -> String {
        guard let condition else { return sql }
        return "\(sql) AND \(condition)"
    }

    /// ``arguments`` as the store binds them.
    var values: [PostgresValue] {
        arguments.map { argument in
            switch argument {
            case .text(let text): .text(text)
            case .number(let number): .double(number)
            }
        }
    }
}
