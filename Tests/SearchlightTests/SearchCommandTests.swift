import Foundation
import TestSupport
import Testing

@testable import Store

/// `searchlight search` and `export` as a user runs them: output shapes and exit statuses.
@Suite struct SearchCommandTests {
    struct Fixture {
        let folder: URL
        var path: String { folder.appendingPathComponent("searchlight.sqlite").path }

        init() async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("searchlight-cli-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let items = [(1, "Lemon tart", "A sharp lemon tart."), (2, "Apple pie", nil), (3, "Lemonade", "Cold.")].map
            {
                TestItem(
                    id: Int64($0.0), title: $0.1, description: $0.2, url: "https://example.com/\($0.0)", engagement: 3,
                    boost: 1.0, sources: "web,activity", lastSeen: 0, storedJSON: "{\"id\":\($0.0)}")
            }
            try await TestItem.publish(items, into: try SQLiteStore(path: path))
        }

        func cleanUp() { try? FileManager.default.removeItem(at: folder) }

        /// Adds `count` items sharing the words "bulk filler".
        func addBulk(_ count: Int) async throws {
            let items = (100..<(100 + count)).map {
                TestItem(
                    id: Int64($0), title: "Bulk \($0)", description: "bulk filler", url: "bulk-\($0)", engagement: 3,
                    boost: 1.0, lastSeen: 0, storedJSON: "{}")
            }
            try await TestItem.publish(items, into: try SQLiteStore(path: path))
        }
    }

    /// Past the count limit, `total` is a lower bound, flagged in JSON and said so in text.
    /// (Several words are counted up to `PublicSearch.exactRankLimit`, 1,000.)
    @Test func lowerBoundTotalIsFlagged() async throws {
        let fixture = try await Fixture()
        defer { fixture.cleanUp() }
        try await fixture.addBulk(1_005)
        let outcome = try await CommandRunner.run(["search", "bulk filler", "--json", "--store", fixture.path])
        #expect(outcome.status == 0)
        let object = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(Set(object.keys) == ["query", "total", "results", "totalIsLowerBound"])
        #expect(object["total"] as? Int == 1_001)
        #expect(object["totalIsLowerBound"] as? Bool == true)
        #expect((object["results"] as? [[String: Any]])?.count == 20)
        let text = try await CommandRunner.run(["search", "bulk filler", "--store", fixture.path])
        #expect(text.standardOutput.contains("More than 1000 results, 20 shown."))
    }

    @Test func jsonHasTheSpecShape() async throws {
        let fixture = try await Fixture()
        defer { fixture.cleanUp() }
        let outcome = try await CommandRunner.run(["search", "lem", "--json", "--store", fixture.path])
        #expect(outcome.status == 0)
        let object = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(Set(object.keys) == ["query", "total", "results"])
        #expect(object["query"] as? String == "lem")
        #expect(object["total"] as? Int == 2)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let first = try #require(results.first)
        #expect(
            Set(first.keys) == ["uniqueIdentifier", "title", "contentDescription", "webpageURL", "sources", "score"])
        #expect(first["uniqueIdentifier"] as? String == "https://example.com/3")  // the shorter item
        #expect(first["webpageURL"] as? String == "https://example.com/3")
        #expect(first["title"] as? String == "Lemonade")
        #expect(first["sources"] as? [String] == ["web", "activity"])
        #expect(first["score"] is Double)
        let apple = try await CommandRunner.run(["search", "apple", "--json", "--store", fixture.path])
        let hit = try #require((try jsonObject(apple.standardOutput)["results"] as? [[String: Any]])?.first)
        #expect(hit["contentDescription"] is NSNull)
    }

    @Test func exitStatuses() async throws {
        let fixture = try await Fixture()
        defer { fixture.cleanUp() }
        let text = try await CommandRunner.run(["search", "lemon", "tart", "--store", fixture.path])
        #expect(text.status == 2)  // one QUERY argument only
        let found = try await CommandRunner.run(["search", "lemon tart", "--store", fixture.path])
        #expect(found.status == 0)
        #expect(found.standardOutput.hasPrefix("1. Lemon tart  (score "))
        #expect(found.standardOutput.contains("https://example.com/1"))
        let none = try await CommandRunner.run(["search", "zzz", "--store", fixture.path])
        #expect(none.status == 1)
        let query = try await CommandRunner.run(["search", "--query", #"title == "apple*"c"#, "--store", fixture.path])
        #expect(query.status == 0)
        #expect(query.standardOutput.contains("Apple pie"))
        let bad = try await CommandRunner.run(["search", "--query", #"title == "x" &&"#, "--store", fixture.path])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("search: column 16:"))
        let empty = try await CommandRunner.run(["search", "\"*()", "--store", fixture.path])
        #expect(empty.status == 2)
        let limit = try await CommandRunner.run(["search", "lemon", "--limit", "0", "--store", fixture.path])
        #expect(limit.status == 2)
        let missing = fixture.folder.appendingPathComponent("none.sqlite").path
        let noStore = try await CommandRunner.run(["search", "lemon", "--store", missing])
        #expect(noStore.status == 3)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// A chain of `&&` as long as the query limit allows runs (it once overflowed SQLite's parser
    /// and exited 3), and the compiler's errors name the column like the parser's.
    @Test func longQueriesRunAndEveryErrorNamesItsColumn() async throws {
        let fixture = try await Fixture()
        defer { fixture.cleanUp() }
        var query = #"title == "apple*"c"#
        while query.count + #" && title != "zzz""#.count <= 4096 { query += #" && title != "zzz""# }
        let long = try await CommandRunner.run(["search", "--query", query, "--store", fixture.path])
        #expect(long.status == 0, "\(long.standardError)")
        #expect(long.standardOutput.contains("Apple pie"))
        let unknown = try await CommandRunner.run([
            "search", "--query", #"title == "x" && author == "y""#, "--store", fixture.path,
        ])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("search: column 17: unknown attribute 'author'"))
        let kind = try await CommandRunner.run(["search", "--query", #"rating > "four""#, "--store", fixture.path])
        #expect(kind.status == 2)
        #expect(kind.standardError.contains("search: column 10: a value of the wrong kind"))
    }

    @Test func batchPrintsOneTimedLinePerQuery() async throws {
        let fixture = try await Fixture()
        defer { fixture.cleanUp() }
        let file = fixture.folder.appendingPathComponent("queries.txt")
        try "lemon\n# comment\n\nq: title == \"Apple pie\"\nq: title ==\n".write(
            to: file, atomically: true, encoding: .utf8)
        let outcome = try await CommandRunner.run(["search", "--queries", file.path, "--store", fixture.path])
        #expect(outcome.status == 1)
        let lines = try outcome.standardOutput.split(separator: "\n").map { try jsonObject($0) }
        #expect(lines.count == 3)
        #expect(lines[0]["total"] as? Int == 2)
        #expect(lines[0]["elapsedMs"] is Double)
        #expect(lines[1]["kind"] as? String == "query")
        #expect(lines[1]["total"] as? Int == 1)
        #expect(lines[2]["line"] as? Int == 5)
        #expect((lines[2]["error"] as? String)?.hasPrefix("column") == true)
        #expect(outcome.standardError.contains("searches: 2, p50"))
    }

    @Test func exportWritesJSONLinesToAFile() async throws {
        let fixture = try await Fixture()
        defer { fixture.cleanUp() }
        let output = fixture.folder.appendingPathComponent("index.jsonl")
        let outcome = try await CommandRunner.run(["export", "--output", output.path, "--store", fixture.path])
        #expect(outcome.status == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n")
        let stdout = try await CommandRunner.run(["export", "--format", "jsonl", "--store", fixture.path])
        #expect(stdout.standardOutput == "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n")
        let bad = try await CommandRunner.run(["export", "--format", "csv", "--store", fixture.path])
        #expect(bad.status == 2)
    }
}
