import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// Free-text search: ranking, prefixes, diacritics, hostile text.
@Suite struct PublicSearchTests {
    static let rows: [TestItem] = [
        TestItem(id: 1, title: "Lemon tart", description: "A sharp dessert.", url: "https://a.example/tart"),
        TestItem(
            id: 2, title: "Apple pie", description: "Better than a lemon cake.", url: "https://a.example/pie"),
        TestItem(id: 3, title: "Crème brûlée", description: "Burnt cream.", url: "https://a.example/creme"),
        TestItem(id: 4, title: "Plum jam", description: "Sweet.", keywords: ["lemon"], url: "https://a.example/j"),
        // Ids in rank order, as the publisher gives them (the exact ranking reads the boost from the id).
        TestItem(
            id: ItemRankOrder.id(boost: 2.0, sequence: 5), title: "Fig roll", description: "Figs.",
            url: "https://a.example/fig5", engagement: 9, boost: 2.0),
        TestItem(
            id: ItemRankOrder.id(boost: 0.5, sequence: 6), title: "Fig roll", description: "Figs.",
            url: "https://a.example/fig6", engagement: 1, boost: 0.5),
        TestItem(
            id: ItemRankOrder.id(boost: 2.0, sequence: 7), title: "Fig roll", description: "Figs.",
            url: "https://a.example/fig7", engagement: 9, boost: 2.0),
    ]

    func withSearch<T>(_ body: (PublicSearch) async throws -> T) async throws -> T {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let opened = try store.open()
        try await TestItem.publish(Self.rows, into: try SQLiteStore(path: store.path))
        return try await body(PublicSearch(store: opened))
    }

    func ids(_ results: SearchResults) -> [String] { results.hits.map(\.uniqueIdentifier) }

    @Test func titleMatchRanksAboveKeywordsAboveDescription() async throws {
        let results = try await withSearch { try await $0.search("lemon") }
        #expect(results.total == 3)
        #expect(ids(results) == ["https://a.example/tart", "https://a.example/j", "https://a.example/pie"])
        let scores = results.hits.map(\.score)
        #expect(scores == scores.sorted(by: >))
        #expect(results.hits[0].title == "Lemon tart")
        #expect(results.hits[0].sources == ["web"])
        #expect(results.hits[0].contentDescription == "A sharp dessert.")
    }

    @Test func engagementBoostBreaksTiesThenLowerIDFirst() async throws {
        let results = try await withSearch { try await $0.search("fig roll") }
        #expect(ids(results) == ["https://a.example/fig5", "https://a.example/fig7", "https://a.example/fig6"])
        #expect(results.hits[0].score - results.hits[2].score > 1.4)
    }

    @Test(arguments: [
        ("lem", ["https://a.example/tart", "https://a.example/j", "https://a.example/pie"]),
        ("lemon ta", ["https://a.example/tart"]),
        ("TART le", ["https://a.example/tart"]),
        // Only the last word is a prefix: earlier words were finished.
        ("lem tart", []),
        ("lemo", ["https://a.example/tart", "https://a.example/j", "https://a.example/pie"]),
        ("lemon tar", ["https://a.example/tart"]),
        ("crem", ["https://a.example/creme"]),
        ("CRÈME BRÛL", ["https://a.example/creme"]),
        ("creme brulee", ["https://a.example/creme"]),
        ("l", []),
        ("tartx", []),
    ])
    func prefixesCaseAndDiacritics(text: String, expected: [String]) async throws {
        let results = try await withSearch { try await $0.search(text) }
        #expect(ids(results) == expected)
        #expect(results.total == expected.count)
    }

    /// Nothing typed is FTS5 syntax: each of these is words, AND-ed.
    @Test(arguments: [
        ("lemon\" OR \"plum", 0),
        ("NEAR(lemon tart)", 0),
        ("lemon OR plum", 0),
        ("-lemon", 3),
        ("lemon*", 3),
        ("title:lemon", 0),
        ("{title}: lemon", 0),
        ("^lemon", 3),
        ("(lemon", 3),
        ("lemon AND", 0),
        ("lemon NOT tart", 0),
        ("'; DROP TABLE public_item; --", 0),
        ("\"\"\"", -1),
        ("   \t ", -1),
        ("", -1),
        ("*:^-()", -1),
    ])
    func hostileTextIsOnlyWords(text: String, expected: Int) async throws {
        try await withSearch { search in
            if expected < 0 {
                do {
                    _ = try await search.search(text)
                    Issue.record("no error for \(text)")
                } catch let error as SearchError {
                    #expect(error.isUsageError)
                    #expect(error.description.contains("nothing to search for"))
                }
            } else {
                let results = try await search.search(text)
                #expect(results.total == expected)
            }
            // The index is intact afterwards.
            let after = try await search.search("lemon")
            #expect(after.total == 3)
        }
    }

    @Test func boundsAreUsageErrors() async throws {
        try await withSearch { search in
            for limit in [0, -1, PublicSearch.maxLimit + 1] {
                await #expect(throws: SearchError.self) { try await search.search("lemon", limit: limit) }
            }
            let long = String(repeating: "a", count: FullTextQuery.maxLength + 1)
            await #expect(throws: SearchError.self) { try await search.search(long) }
            let many = Array(repeating: "ab", count: FullTextQuery.maxWords + 1).joined(separator: " ")
            await #expect(throws: SearchError.self) { try await search.search(many) }
            let one = try await search.search("lemon", limit: 1)
            #expect(one.hits.count == 1)
        }
    }

    @Test func matchExpressionQuotesEveryWord() throws {
        #expect(try FullTextQuery("Lemon \"tart\" OR x").matchExpression == #""Lemon" AND "tart" AND "OR" AND "x""#)
        #expect(try FullTextQuery("lemon ta").matchExpression == #""lemon" AND "ta"*"#)
        #expect(try FullTextQuery("e\u{301}clair").words == ["e\u{301}clair"])
        #expect(try FullTextQuery("!!! ...").matchExpression == nil)
    }

    /// Over the exact rank limit (but under the count limit), `total` stays exact and results still
    /// come best first (tiered: the title match first).
    @Test func commonWordOverTheExactLimit() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let opened = try store.open()
        let count = PublicSearch.exactRankLimit + 50
        let rows = (1...count).map { id in
            TestItem(
                id: Int64(id), title: id == count ? "Common common" : "Item \(id)",
                description: "common words", boost: id == count ? 100 : Double(id % 7))
        }
        try await TestItem.publish(rows, into: try SQLiteStore(path: store.path))
        let results = try await PublicSearch(store: opened).search("common", limit: 5)
        #expect(results.total == count)
        #expect(!results.totalIsLowerBound)
        #expect(results.hits.first?.uniqueIdentifier == "item-\(count)")
        #expect(results.hits.map(\.score) == results.hits.map(\.score).sorted(by: >))
    }
}
