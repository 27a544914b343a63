import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

/// The CSSearchQuery language over the public index: every mapped attribute, keywords, dates, folding.
@Suite struct PublicQueryTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    static let rows: [TestItem] = [
        TestItem(
            id: 1, title: "Lemon tart", description: "A sharp lemon tart.", keywords: ["tart", "lemon", "a\\nb"],
            url: "https://example.com/tart", bundle: "com.example.recipes", domain: "recipes.desserts",
            rating: 4.5, ratingCount: 120, engagement: 12, boost: 1.0, sources: "web,activity",
            expiresAt: now.timeIntervalSince1970 + 86_400, lastSeen: now.timeIntervalSince1970 - 3_600),
        TestItem(
            id: 2, title: "Crème brûlée", description: "Burnt cream.", keywords: ["tartlet", "French dessert"],
            url: "https://example.com/creme", bundle: "com.example.recipes", domain: "recipes",
            rating: 3.0, ratingCount: 4, engagement: 3, boost: 0.5,
            expiresAt: now.timeIntervalSince1970 - 86_400, lastSeen: now.timeIntervalSince1970 - 10 * 86_400),
        TestItem(id: 3, title: "Plain page", lastSeen: now.timeIntervalSince1970 - 100 * 86_400),
    ]

    static let attributeCases: [(String, [Int64])] = [
        (#"title == "Lemon tart""#, [Int64(1)]),
        (#"title == "lemon tart""#, []),
        (#"title == "lemon tart"c"#, [1]),
        (#"displayName == "lemon*"c"#, [1]),
        (#"title == "creme brulee"cd"#, [2]),
        (#"title == "CRèME*"c"#, [2]),
        (#"title == "creme*"c"#, []),
        // `c` folds case beyond ASCII (SQLite's lower() would leave "È" and "Û" alone), but not diacritics.
        (#"title == "CRÈME*"c"#, [2]),
        (#"title == "CRÈME BRÛLÉE"c"#, [2]),
        (#"title == "CREME BRULEE"c"#, []),
        (#"title == "CRÈME BRÛLÉE"cd"#, [2]),
        (#"keywords == "FRENCH DESSERT"c"#, [2]),
        (#"contentDescription == "*cream*""#, [2]),
        (#"contentDescription == "sharp"wc"#, [1]),
        (#"contentDescription == *"#, [1, 2]),
        (#"contentDescription != *"#, [3]),
        (#"webpageURL == "https://example.com/tart""#, [1]),
        (#"url == "https://example.com/*""#, [1, 2]),
        (#"contentURL == "*creme""#, [2]),
        (#"uniqueIdentifier == "item-3""#, [3]),
        (#"domainIdentifier == "recipes*""#, [1, 2]),
        (#"domainIdentifier == "recipes""#, [2]),
        (#"bundleIdentifier == "com.example.recipes""#, [1, 2]),
        ("rating >= 4", [1]),
        ("InRange(rating, 2, 4)", [2]),
        ("ratingCount > 100", [1]),
        ("engagement < 5", [2, 3]),
        ("engagement == 12 || engagement == 0", [1, 3]),
        ("!(engagement > 0)", [3]),
        ("(rating > 1) && !(rating > 4)", [2]),
    ]

    static let keywordCases: [(String, [Int64])] = [
        (#"keywords == "tart""#, [Int64(1)]),
        (#"keywords == "TART"c"#, [1]),
        (#"keywords == "tart*""#, [1, 2]),
        (#"keywords == "french dessert"c"#, [2]),
        (#"keywords == "dessert"wc"#, [2]),
        (#"keywords == "a\\nb""#, [1]),
        (#"keywords == "b""#, []),
        (#"keywords != "tart""#, [2]),
        (#"keywords == *"#, [1, 2]),
        (#"keywords != *"#, [3]),
        (#"keywords == "lemon" && keywords == "tart""#, [1]),
    ]

    static let dateCases: [(String, [Int64])] = [
        ("expirationDate > $time.now", [Int64(1)]),
        ("expirationDate < $time.now", [2]),
        ("lastUsedDate >= $time.today(-1)", [1]),
        ("contentModificationDate < $time.now(-86400)", [2, 3]),
        (#"lastUsedDate >= "2025-12-31T00:00:00Z""#, [1]),
        (#"InRange(expirationDate, $time.iso("2025-12-30T00:00:00Z"), $time.today)"#, [2]),
    ]

    func search(_ query: String, text: String = "") async throws -> [Int64] {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let opened = try store.open()
        try await TestItem.publish(Self.rows, into: try SQLiteStore(path: store.path))
        let results = try await PublicSearch(store: opened).search(text, query: query, now: Self.now)
        let byIdentifier = Dictionary(uniqueKeysWithValues: Self.rows.map { ($0.uniqueIdentifier, $0.id) })
        #expect(results.total == results.hits.count)
        return results.hits.compactMap { byIdentifier[$0.uniqueIdentifier] }.sorted()
    }

    @Test(arguments: Self.attributeCases)
    func everyMappedAttribute(query: String, expected: [Int64]) async throws {
        #expect(try await search(query) == expected)
    }

    @Test(arguments: Self.keywordCases)
    func keywordsAreMultiValued(query: String, expected: [Int64]) async throws {
        #expect(try await search(query) == expected)
    }

    @Test(arguments: Self.dateCases)
    func datesCompareWithTime(query: String, expected: [Int64]) async throws {
        #expect(try await search(query) == expected)
    }

    @Test func textAndQueryCombine() async throws {
        #expect(try await search("rating >= 1", text: "tart") == [1, 2])
        #expect(try await search("rating < 4", text: "tart") == [2])
        #expect(try await search("rating < 4", text: "lemon") == [])
        #expect(try await search("rating >= 1", text: "cream") == [2])
    }

    @Test(arguments: [
        (#"title == "x" &&"#, 16),
        (#"title = "x""#, 7),
        (#"(title == "x""#, 14),
        (#"title == "x"#, 10),
        // Found by the compiler: the attribute or the value, never column 0.
        (#"rating > 4 && author == "x""#, 15),
        (#"rating >= "high""#, 11),
        (#"expirationDate < "next week""#, 18),
        ("keywords != $time.now", 13),
        (#"!(keywords == "a" || InRange(keywords, "a", $time.now))"#, 45),
    ])
    func syntaxErrorsNameTheirColumn(query: String, column: Int) async throws {
        do {
            _ = try await search(query)
            Issue.record("no error for \(query)")
        } catch let error as SearchError {
            guard case .query(let syntax) = error else { throw error }
            #expect(syntax.column == column)
            #expect(error.isUsageError)
        }
    }

    @Test func unknownAttributeIsAUsageError() async throws {
        await #expect(throws: SearchError.self) { try await search(#"author == "x""#) }
    }

    @Test(arguments: [
        ("Crème Brûlée", "creme brulee"), ("ÉCOLE", "ecole"), ("straße", "strasse"), ("Ångström", "angstrom"),
    ])
    func foldFunctionFoldsCaseAndDiacritics(input: String, folded: String) async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let opened = try store.open()
        let result = try await opened.pool.read { db in
            try String.fetchOne(db, sql: "SELECT searchlight_fold(?)", arguments: [input])
        }
        #expect(result == folded)
        let number = try await opened.pool.read { db in try Int.fetchOne(db, sql: "SELECT searchlight_fold(42)") }
        #expect(number == 42)
    }

    /// `c` alone: case only, for all of Unicode; ASCII takes a fast path with the same answer.
    @Test(arguments: [
        ("CRÈME Brûlée", "crème brûlée"), ("ÉCOLE", "école"), ("Lemon TART 42!", "lemon tart 42!"), ("", ""),
    ])
    func caseFoldFunctionFoldsCaseOnly(input: String, folded: String) async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let opened = try store.open()
        let result = try await opened.pool.read { db in
            try String.fetchOne(db, sql: "SELECT searchlight_casefold(?)", arguments: [input])
        }
        #expect(result == folded)
    }
}
