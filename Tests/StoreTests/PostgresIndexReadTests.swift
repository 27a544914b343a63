import Foundation
import GRDB
import Index
import Logging
import Store
import TestSupport
import Testing

/// `PublicSearch` and `PublicExport` on a PostgreSQL store against the same on a SQLite store holding the
/// same items (Docs/postgres.md, "Search and export on PostgreSQL").
@Suite("Search and export read a PostgreSQL store as they read SQLite", .timeLimit(.minutes(3)))
struct PostgresIndexReadTests {
    static let now = PublicQueryTests.now

    /// The search tests' items, plus items without a web page or a description and with several sources.
    static let rows =
        PublicSearchTests.rows + PostgresSearchTests.awkwardRows + PostgresSearchTests.gramRows + [
            TestItem(id: 300, title: "Orange curd", keywords: ["spread"], rating: 4, sources: "web,activity"),
            TestItem(id: 301, title: "Lime sorbet", description: "Iced.", sources: "activity, searchableItem"),
        ]

    /// Runs `body` on both engines' searches over ``rows``, closing them afterwards.
    func withSearches(_ body: (_ sqlite: PublicSearch, _ postgres: PublicSearch) async throws -> Void) async throws {
        let index = try await DualIndex(Self.rows)
        do {
            try await body(PublicSearch(store: index.store), PublicSearch(source: index.postgresSource))
        } catch {
            await index.close()
            throw error
        }
        await index.close()
    }

    /// `results` without the scores, the hits as a set: what both engines agree on for free text.
    static func unscored(_ results: SearchResults) -> (Int, Bool, Set<SearchHit>) {
        (
            results.total, results.totalIsLowerBound,
            Set(
                results.hits.map { hit in
                    var hit = hit
                    hit.score = 0
                    return hit
                })
        )
    }

    @Test("a query returns the same results, scores (the boost) and order included")
    func queriesReturnTheSameResults() async throws {
        try await withSearches { sqlite, postgres in
            var found = 0
            for query in [
                #"title == "lemon*"cd"#, #"title == "*""#, "rating >= 1", #"keywords == "spread""#, #"title == "*e*""#,
                #"title == "straße"c"#, #"contentDescription == "*""#, #"title == "x'); DROP TABLE public_item; --""#,
            ] {
                let expected = try await sqlite.search("", query: query, limit: PublicSearch.maxLimit, now: Self.now)
                let results = try await postgres.search("", query: query, limit: PublicSearch.maxLimit, now: Self.now)
                #expect(results == expected, "\(query)")
                if !results.hits.isEmpty { found += 1 }
            }
            #expect(found >= 5)
        }
    }

    @Test("free text returns the same items with the same fields and total; in the same order where both rank alike")
    func textReturnsTheSameItems() async throws {
        try await withSearches { sqlite, postgres in
            for text in PostgresSearchTests.texts + PostgresSearchTests.hostile + ["lemon", "curd", "sorbet"] {
                let expected: SearchResults
                do {
                    expected = try await sqlite.search(text, limit: PublicSearch.maxLimit, now: Self.now)
                } catch {
                    // Text with no word, or too long: the same usage error (see `usageErrors`).
                    let postgresError = await Self.error { try await postgres.search(text, now: Self.now) }
                    #expect(postgresError?.description == "\(error)")
                    continue
                }
                let results = try await postgres.search(text, limit: PublicSearch.maxLimit, now: Self.now)
                #expect(Self.unscored(results) == Self.unscored(expected), "\(text.prefix(40))")
            }
            for text in PostgresSearchTests.rankedTexts {
                let expected = try await sqlite.search(text, now: Self.now).hits.map(\.uniqueIdentifier)
                #expect(try await postgres.search(text, now: Self.now).hits.map(\.uniqueIdentifier) == expected)
            }
            let curd = try await postgres.search("curd", now: Self.now)
            #expect(curd.hits.first?.sources == ["web", "activity"])
            #expect(curd.hits.first?.contentDescription == nil)
            #expect(curd.hits.first?.webpageURL == nil)
            #expect(curd.hits.first?.uniqueIdentifier == "item-300")
        }
    }

    @Test("the limit cuts the page of the full ranking; the total counts every match")
    func limitCutsThePage() async throws {
        try await withSearches { _, postgres in
            let all = try await postgres.search("lemon", limit: PublicSearch.maxLimit, now: Self.now)
            #expect(all.total == all.hits.count)
            #expect(all.total == 3)
            for limit in [1, 2] {
                let page = try await postgres.search("lemon", limit: limit, now: Self.now)
                #expect(page.total == all.total)
                #expect(page.hits == Array(all.hits.prefix(limit)))
            }
            let query = try await postgres.search("", query: #"title == "*""#, limit: 3, now: Self.now)
            #expect(query.total == Self.rows.count)
            #expect(query.hits.count == 3)
        }
    }

    @Test("bad input is the same usage error on both engines, before the store is read")
    func usageErrors() async throws {
        try await withSearches { sqlite, postgres in
            for (text, query, limit) in [
                ("lemon", nil, 0), ("lemon", nil, PublicSearch.maxLimit + 1), ("\"*()", nil, 10),
                ("", #"title == "x" &&"#, 10), ("lemon", #"author == "y""#, 10), ("", #"rating > "four""#, 10),
                (String(repeating: "a ", count: 2_000), nil, 10),
            ] as [(String, String?, Int)] {
                let expected = await Self.error { try await sqlite.search(text, query: query, limit: limit) }
                let error = await Self.error { try await postgres.search(text, query: query, limit: limit) }
                #expect(error?.isUsageError == true, "\(String(describing: error))")
                #expect(error?.description == expected?.description)
            }
        }
    }

    /// The search error `body` throws, if any.
    static func error(_ body: () async throws -> SearchResults) async -> SearchError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? SearchError
        }
    }

    @Test("a replica never built is a store error, not a usage error")
    func storeFailure() async throws {
        let database = try await PostgresCluster.shared().makeStore()
        let cache = NSTemporaryDirectory() + "searchlight-replica-" + UUID().uuidString
        let replica = try await IndexReplica.open(database: database, directory: cache, logger: Logger(label: "test"))
        let error = await Self.error { try await PublicSearch(source: .replica(replica)).search("lemon") }
        await database.close()
        try? FileManager.default.removeItem(atPath: cache)
        #expect(error?.isUsageError == false)
        #expect(error?.description.contains("not been built") == true, "\(String(describing: error))")
    }
}
