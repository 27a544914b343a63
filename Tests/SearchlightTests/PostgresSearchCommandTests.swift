import FixtureServer
import Foundation
import Testing

/// `searchlight search` and `export` on a PostgreSQL store through the real executable: the same output and
/// exit status as on a SQLite store holding the same public items, except what Docs/postgres.md says differs
/// (the score of free text, `ts_rank` there and bm25 here, and so the order of unequal text matches).
@Suite("search and export with a PostgreSQL store", .timeLimit(.minutes(3)))
struct PostgresSearchCommandTests {
    static let items: [PublishedItem] = [
        PublishedItem(
            id: 1, title: "Lemon tart", description: "A sharp lemon tart with a crisp crust.",
            keywords: ["dessert", "citrus"], url: "https://r.example/lemon-tart", boost: 1.0, sources: "web,activity",
            rating: 4.5),
        PublishedItem(
            id: 2, title: "Lemonade", description: "Cold and sweet.", url: "https://r.example/lemonade", boost: 2),
        PublishedItem(id: 3, title: "Apple pie", keywords: ["dessert"], url: "https://r.example/apple-pie", boost: 0.5),
        PublishedItem(id: 4, title: "Tarte au citron", description: "Lemon, butter & eggs", sources: "activity"),
        PublishedItem(id: 5, title: "京都の抹茶ガイド", description: "Matcha guide", url: "https://r.example/kyoto"),
        PublishedItem(
            id: 6, title: "Crème brûlée", description: "Caramel top", keywords: ["dessert"],
            url: "https://r.example/creme", boost: 1.0, rating: 5),
        PublishedItem(id: 7, title: "100% pure_juice", description: "x' OR '1'='1", url: "https://r.example/Zed"),
        PublishedItem(id: 8, title: "Straße tart", url: "https://r.example/straße", boost: 0.75, rating: 3),
    ]

    /// Runs `arguments` on both stores; returns each one's outcome (PostgreSQL's first).
    static func both(_ arguments: [String], _ stores: PublicIndexStores) async throws
        -> (postgres: CommandRunner.Outcome, sqlite: CommandRunner.Outcome)
    {
        let postgres = try await CommandRunner.run(arguments + ["--store", stores.postgres])
        let sqlite = try await CommandRunner.run(arguments + ["--store", stores.sqlite])
        return (postgres, sqlite)
    }

    /// `search --json` output with the scores left out and the results as a set: what both engines agree on
    /// for free text.
    static func unscored(_ output: String) throws -> [String: String] {
        guard var object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let results = object["results"] as? [[String: Any]]
        else { return ["unparsed": output] }
        let hits = try results.map { hit in
            var hit = hit
            hit["score"] = nil
            return String(
                decoding: try JSONSerialization.data(withJSONObject: hit, options: .sortedKeys), as: UTF8.self)
        }
        object["results"] = nil
        var fields = object.mapValues { "\($0)" }
        fields["results"] = hits.sorted().joined(separator: "\n")
        return fields
    }

    /// Only a query: the score is the boost on both engines, so the whole output agrees.
    static let queries: [[String]] = [
        ["--query", #"title == "lemon*"cd"#], ["--query", "rating >= 3"], ["--query", #"keywords == "dessert""#],
        ["--query", #"title == "*""#, "--limit", "3"], ["--query", #"title == "straße"c || title == "STRASSE*"c"#],
        ["--query", #"title == "x'); DROP TABLE public_item; --""#], ["--query", #"contentDescription == "*'1'='1""#],
        ["--query", #"title == "100%*""#], ["--query", #"title == "100_*""#], ["--query", "rating > 10"],
    ]

    @Test("a query gives the same output, text and JSON, and the same exit status", arguments: queries)
    func queryOutputIsTheSame(arguments: [String]) async throws {
        let stores = try await PublicIndexStores(Self.items)
        defer { stores.cleanUp() }
        for format in [["--json"], []] {
            let (postgres, sqlite) = try await Self.both(["search"] + arguments + format, stores)
            #expect(postgres.status == sqlite.status, "\(postgres.standardError)")
            #expect(postgres.standardOutput == sqlite.standardOutput)
            #expect(postgres.standardError == sqlite.standardError)
        }
    }

    /// Free text, hostile text included: the same items, fields and total.
    static let texts = [
        "lemon", "lemon ta", "tart", "dessert", "creme brul", "ガイド", "京都", "strasse", "straße", "citrus lemon",
        "zzz", "'; DROP TABLE public_item; --", "x' OR '1'='1", "$1::tsquery", "a & b | !c <-> (d):*", "lemon\\",
        "NEAR(lemon tart)", "\u{1}\u{1B}[31m", "pure_juice", "100%",
    ]

    @Test("free text finds the same items with the same fields and total", arguments: texts)
    func textFindsTheSameItems(text: String) async throws {
        let stores = try await PublicIndexStores(Self.items)
        defer { stores.cleanUp() }
        let (postgres, sqlite) = try await Self.both(["search", text, "--json"], stores)
        #expect(postgres.status == sqlite.status, "\(postgres.standardError)")
        #expect(postgres.standardError == sqlite.standardError)
        if sqlite.status == 2 {
            #expect(postgres.standardOutput.isEmpty)
        } else {
            #expect(try Self.unscored(postgres.standardOutput) == Self.unscored(sqlite.standardOutput))
        }
        // Whatever the text, the index is intact.
        let export = try await CommandRunner.run(["export", "--store", stores.postgres])
        #expect(export.standardError == "exported \(Self.items.count) items\n")
    }

    @Test("usage errors are the same: a query that does not parse, nothing to search, a limit out of range")
    func usageErrors() async throws {
        let stores = try await PublicIndexStores(Self.items)
        defer { stores.cleanUp() }
        for arguments in [
            ["--query", #"title == "x" &&"#], ["--query", #"title == "x" && author == "y""#],
            ["--query", #"rating > "four""#], ["\"*()"], ["lemon", "--limit", "0"], ["lemon", "--limit", "1001"],
            ["lemon", "--query", "title =="],
        ] {
            let (postgres, sqlite) = try await Self.both(["search"] + arguments, stores)
            #expect(postgres.status == 2, "\(arguments): \(postgres.standardError)")
            #expect(postgres.standardError == sqlite.standardError, "\(arguments)")
            #expect(postgres.standardOutput.isEmpty)
        }
        let bad = try await CommandRunner.run(["search", "--query", #"title == "x" &&"#, "--store", stores.postgres])
        #expect(bad.standardError.contains("search: column 16: "), "\(bad.standardError)")
    }

    @Test("the limit cuts the page, not the total")
    func limit() async throws {
        let stores = try await PublicIndexStores(Self.items)
        defer { stores.cleanUp() }
        for limit in [1, 2, 1000] {
            let (postgres, sqlite) = try await Self.both(
                ["search", "--query", #"title == "*""#, "--json", "--limit", "\(limit)"], stores)
            #expect(postgres.standardOutput == sqlite.standardOutput)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(postgres.standardOutput.utf8)) as? [String: Any])
            #expect(object["total"] as? Int == Self.items.count)
            #expect((object["results"] as? [Any])?.count == min(limit, Self.items.count))
        }
        let text = try await CommandRunner.run(["search", "tart", "--limit", "1", "--store", stores.postgres])
        #expect(text.status == 0)
        #expect(text.standardOutput.hasSuffix("3 results, 1 shown.\n"), "\(text.standardOutput)")
    }

    @Test("--queries runs every line on PostgreSQL and reports the same totals and errors")
    func batch() async throws {
        let stores = try await PublicIndexStores(Self.items)
        defer { stores.cleanUp() }
        let file = stores.folder.appendingPathComponent("queries.txt")
        try "lemon\n# comment\n\nq: title == \"Apple pie\"\nq: title ==\ntart\n".write(
            to: file, atomically: true, encoding: .utf8)
        let (postgres, sqlite) = try await Self.both(["search", "--queries", file.path], stores)
        #expect(postgres.status == 1)
        #expect(postgres.status == sqlite.status)
        func lines(_ output: String) -> [String] {
            output.split(separator: "\n").map { String($0).replacing(/"elapsedMs":[0-9.e-]+,?/, with: "") }
        }
        #expect(lines(postgres.standardOutput) == lines(sqlite.standardOutput))
        #expect(lines(postgres.standardOutput).count == 4)
        #expect(postgres.standardError.hasPrefix("searches: 3, p50"), "\(postgres.standardError)")
    }

    @Test("export writes the same bytes, to standard output and to a file")
    func export() async throws {
        let stores = try await PublicIndexStores(Self.items)
        defer { stores.cleanUp() }
        let (postgres, sqlite) = try await Self.both(["export"], stores)
        #expect(postgres.status == 0, "\(postgres.standardError)")
        #expect(postgres.standardOutput == sqlite.standardOutput)
        #expect(postgres.standardError == "exported 8 items\n")
        let lines = postgres.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Self.items.count + 1)
        // Byte order: `https://r.example/Z…` before `…/a…`, `…/straße` after `…/s…`, `item-4` (no web page) last.
        let identifiers = Self.items.map(\.uniqueIdentifier).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(identifiers.first == "https://r.example/Zed")
        #expect(
            lines.dropLast().map { line in line.firstMatch(of: /"uniqueIdentifier":"([^"]*)"/).map { String($0.1) } }
                == identifiers)
        let output = stores.folder.appendingPathComponent("pg.jsonl")
        let toFile = try await CommandRunner.run(["export", "--output", output.path, "--store", stores.postgres])
        #expect(toFile.status == 0)
        #expect(toFile.standardError == "exported 8 items to \(output.path)\n")
        #expect(try Data(contentsOf: output) == Data(sqlite.standardOutput.utf8))
    }

    @Test("an empty index: search finds nothing (exit 1), export writes nothing (exit 0), as on SQLite")
    func emptyIndex() async throws {
        let stores = try await PublicIndexStores([])
        defer { stores.cleanUp() }
        for arguments in [["search", "lemon"], ["search", "--query", "rating > 1", "--json"], ["export"]] {
            let (postgres, sqlite) = try await Self.both(arguments, stores)
            #expect(postgres.status == sqlite.status, "\(arguments)")
            #expect(postgres.standardOutput == sqlite.standardOutput, "\(arguments)")
            #expect(postgres.standardError == sqlite.standardError, "\(arguments)")
        }
        let none = try await CommandRunner.run(["search", "lemon", "--store", stores.postgres])
        #expect(none.status == 1)
        #expect(none.standardOutput == "No results.\n")
    }
}
