import FixtureServer
import Foundation
import Index
import Store
import TestSupport
import Testing

/// Search on PostgreSQL bounded as on SQLite: with the limits lowered so that a few thousand items reach every
/// regime, both engines return the same results — counts with early exit and lower bounds, the tiers in rank
/// order, the long last word matched whole, a query alone read in rank order — scores included, except the
/// exact ranking's (bm25 against `ts_rank`: the same items and total there). Docs/postgres.md, "Search on
/// PostgreSQL".
@Suite("Search on PostgreSQL is bounded as on SQLite", .timeLimit(.minutes(3)))
struct PostgresBoundedSearchTests {
    static let now = PublicQueryTests.now
    static let limits = PublicSearch.Limits(exactRank: 40, count: 150, wordRank: 300)

    /// 1,500 items in rank order: "filler" everywhere, "common" in some titles, keywords and descriptions,
    /// "lemonade" in many and "lemonades" in a few (a long last word that is itself common), text without
    /// spaces in every seventh, titles starting "Bakery" in every fifth, ratings in every third.
    static let rows: [TestItem] = {
        var generator = SeededRandom(seed: 5)
        return (0..<1_500).map { index in
            let engagement = Int(generator.next() % 5_000) / (1 + index % 7)
            let boost = log(1 + Double(engagement))
            var title = index % 5 == 0 ? "Bakery \(index)" : "Item \(index)"
            var description = "filler text"
            var keywords: [String] = []
            if index % 31 == 0 { title += " common" }
            if index % 23 == 0 { keywords.append("common") }
            if index % 6 == 0 { description += " common" }
            if index % 3 == 0 { description += " lemonade" }
            if index % 250 == 1 { title += " lemonades" }
            if index % 400 == 7 { keywords.append("rare") }
            if index % 7 == 0 { title += index % 14 == 0 ? " 京都の港ガイド" : "" }
            if index % 7 == 0 && index % 14 != 0 { description += " 港のガイドブック" }
            return TestItem(
                id: ItemRankOrder.id(boost: boost, sequence: Int64(index + 1)), title: title, description: description,
                keywords: keywords, url: "https://b.example/\(index)", rating: index % 3 == 0 ? Double(index % 5) : nil,
                engagement: engagement, boost: boost)
        }
        .sorted { $0.id < $1.id }
    }()

    /// Free text and queries, and whether SQLite ranks them exactly (bm25: the same items and total only).
    static let searches: [(text: String, query: String?, exact: Bool)] = [
        ("common", nil, false), ("filler", nil, false), ("filler common", nil, false), ("comm", nil, false),
        ("co", nil, false), ("lemonade", nil, false), ("lemonades", nil, true), ("rare", nil, true),
        ("ガイド", nil, false), ("港", nil, false), ("filler ガイド", nil, false), ("common", "rating > 2", false),
        ("rare filler", nil, false), ("bakery 150", nil, true),
        ("", "rating > 2", false), ("", #"title == "bakery*"cd"#, false),
        ("", #"title == "ba*"c && engagement > 3"#, false),
        ("", "engagement >= 2000", false), ("", "InRange(engagement, 2, 8)", false), ("", "rating == 4", false),
    ]

    @Test("every regime returns SQLite's results on PostgreSQL")
    func regimesMatch() async throws {
        let index = try await DualIndex(Self.rows)
        let sqlite = PublicSearch(store: index.store, limits: Self.limits)
        let postgres = PublicSearch(source: index.postgresSource, limits: Self.limits)
        do {
            var lowerBounds = 0
            for (text, query, exact) in Self.searches {
                for limit in [5, 60] {
                    let expected = try await sqlite.search(text, query: query, limit: limit, now: Self.now)
                    let results = try await postgres.search(text, query: query, limit: limit, now: Self.now)
                    let label = "\(text) \(query ?? "") \(limit)"
                    if exact {
                        #expect(
                            PostgresIndexReadTests.unscored(results) == PostgresIndexReadTests.unscored(expected),
                            "\(label)")
                    } else {
                        #expect(results == expected, "\(label)")
                    }
                    #expect(!results.hits.isEmpty, "\(label)")
                    if results.totalIsLowerBound { lowerBounds += 1 }
                }
            }
            // The lower bounds are reached, not only exact counts.
            #expect(lowerBounds >= 10, "\(lowerBounds)")
        } catch {
            await index.close()
            throw error
        }
        await index.close()
    }

    @Test("a large match set is counted to the limit and taken tier by tier in rank order")
    func tiersInRankOrder() async throws {
        let index = try await DualIndex(Self.rows)
        do {
            let postgres = PublicSearch(source: index.postgresSource, limits: Self.limits)
            let results = try await postgres.search("common", limit: 60, now: Self.now)
            #expect(results.totalIsLowerBound)
            #expect(results.total == Self.limits.count + 1)
            // Every title match first (bonus 200), the most engaged first, then keywords (100).
            let inTitle = Self.rows.filter { $0.title.contains("common") }.sorted {
                ($0.boost, -$0.id) > ($1.boost, -$1.id)
            }
            #expect(inTitle.count < 60)
            #expect(results.hits.prefix(inTitle.count).map(\.uniqueIdentifier) == inTitle.map(\.uniqueIdentifier))
            #expect(results.hits.first?.score == 200 + (inTitle.first?.boost ?? 0))
            #expect(results.hits.count == 60)
            #expect(results.hits.dropFirst(inTitle.count).allSatisfy { $0.score < 200 && $0.score >= 100 })
            // A page smaller than the title tier: its first items in rank (id) order, then sorted by boost.
            let page = try await postgres.search("common", limit: 10, now: Self.now)
            let first = inTitle.sorted { $0.id < $1.id }.prefix(10).sorted { ($0.boost, -$0.id) > ($1.boost, -$1.id) }
            #expect(page.hits.map(\.uniqueIdentifier) == first.map(\.uniqueIdentifier))
        } catch {
            await index.close()
            throw error
        }
        await index.close()
    }
}
