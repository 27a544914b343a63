import FixtureServer
import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// Large match sets: counted up to the exact limit, then ranked by tier (title, title or keywords,
/// anywhere) in static-rank order; `total` becomes a lower bound.
@Suite struct TieredSearchTests {
    static let count = 20_000
    static let limits = PublicSearch.Limits(exactRank: 100, count: 500, wordRank: 5_000)

    /// 20,000 items with "filler" in every description and pseudo-random boosts; "common" in the
    /// title of three, in the keywords of two, in the description of every tenth.
    static func rows() -> [TestItem] {
        var generator = SeededRandom(seed: 11)
        return (0..<count).map { index in
            var boost = Double(generator.next() % 1_000) / 100
            var title = "Item \(index)"
            var keywords: [String] = []
            var description = "filler text"
            switch index {
            case 100: (title, boost) = ("Common one", 1)
            case 200: (title, boost) = ("Common five", 5)
            case 300: (title, boost) = ("Common three", 3)
            case 400: (keywords, boost) = (["common"], 2)
            case 500: (keywords, boost) = (["common"], 0.5)
            default: if index % 10 == 0 { description += " common" }
            }
            let id = ItemRankOrder.id(boost: boost, sequence: Int64(index + 1))
            return TestItem(
                id: id, title: title, description: description, keywords: keywords, url: "https://t.example/\(index)",
                boost: boost)
        }
    }

    func withSearch<T>(limits: PublicSearch.Limits = limits, _ body: (PublicSearch, [TestItem]) async throws -> T)
        async throws -> T
    {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let opened = try store.open()
        let rows = Self.rows()
        try await TestItem.publish(rows.sorted { $0.id < $1.id }, into: try SQLiteStore(path: store.path))
        return try await body(PublicSearch(store: opened, limits: limits), rows)
    }

    @Test func titleTierThenKeywordsThenAnywhere() async throws {
        try await withSearch { search, _ in
            let results = try await search.search("common", limit: 8)
            #expect(results.totalIsLowerBound)
            #expect(results.total == Self.limits.count + 1)
            let ids = results.hits.map(\.uniqueIdentifier)
            let expectedFirst = [200, 300, 100, 400, 500].map { "https://t.example/\($0)" }
            #expect(Array(ids.prefix(5)) == expectedFirst)
            #expect(ids.count == 8)
            let scores = results.hits.map(\.score)
            #expect(scores == scores.sorted(by: >))
            #expect(scores[0] == 205)
            #expect(scores[3] == 102)
            // A page of the title tier alone: its two most engaged items.
            let two = try await search.search("common", limit: 2)
            #expect(two.hits.map(\.uniqueIdentifier) == Array(expectedFirst.prefix(2)))
        }
        // Counted exactly (2,000 matches under a count limit of 5,000), still tiered.
        try await withSearch(limits: PublicSearch.Limits(exactRank: 100, count: 5_000, wordRank: 5_000)) { search, _ in
            let results = try await search.search("common", limit: 8)
            #expect(!results.totalIsLowerBound)
            #expect(results.total == 2_000)
            #expect(
                results.hits.prefix(5).map(\.uniqueIdentifier)
                    == [200, 300, 100, 400, 500].map { "https://t.example/\($0)" })
        }
    }

    /// Over a word everywhere, the page holds the most engaged items (to a quarter of boost).
    @Test func anywhereTierTakesTheHighestBuckets() async throws {
        try await withSearch { search, rows in
            let results = try await search.search("filler", limit: 50)
            #expect(results.totalIsLowerBound)
            #expect(results.hits.count == 50)
            let returned = Set(results.hits.map(\.uniqueIdentifier))
            let boosts = Dictionary(uniqueKeysWithValues: rows.map { ($0.uniqueIdentifier, $0.boost) })
            let lowestShown = results.hits.compactMap { boosts[$0.uniqueIdentifier] }.min() ?? 0
            let bestHidden = rows.filter { !returned.contains($0.uniqueIdentifier) }.map(\.boost).max() ?? 0
            #expect(ItemRankOrder.bucket(boost: lowestShown) >= ItemRankOrder.bucket(boost: bestHidden))
            #expect(results.hits.map(\.score) == results.hits.map(\.score).sorted(by: >))
            // Several words are counted no further than the exact rank limit.
            let twoWords = try await search.search("filler text", limit: 5)
            #expect(twoWords.totalIsLowerBound)
            #expect(twoWords.total == Self.limits.exactRank + 1)
            #expect(twoWords.hits.count == 5)
        }
    }

    /// Few matches keep exact bm25 ranking and an exact total; a query alone counts the same way.
    @Test func smallSetsAreExactAndQueriesCountToo() async throws {
        try await withSearch { search, _ in
            let exact = try await search.search("common five")
            #expect(!exact.totalIsLowerBound)
            #expect(exact.total == 1)
            let fewMatches = try await search.search("item 12345")
            #expect(fewMatches.total == 1)
            #expect(fewMatches.hits.first?.title == "Item 12345")
            let many = try await search.search("", query: #"title == "Item*""#, limit: 5)
            #expect(many.totalIsLowerBound)
            #expect(many.total == Self.limits.exactRank + 1)
            #expect(many.hits.map(\.score) == many.hits.map(\.score).sorted(by: >))
            let few = try await search.search("", query: #"title == "Common*""#)
            #expect(!few.totalIsLowerBound)
            #expect(few.hits.map(\.title) == ["Common five", "Common three", "Common one"])
        }
    }
}
