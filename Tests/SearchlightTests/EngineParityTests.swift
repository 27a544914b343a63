import FixtureServer
import Foundation
import TestSupport
import Testing

/// The whole pipeline through the real executable — crawl the example site, import the example app's
/// donations, publish, crawl the pages the import queued, publish again, report — on a SQLite store and on
/// a PostgreSQL store: the same summaries, the same clusters, the same public index, export and search results.
@Suite("the pipeline gives the same index on SQLite and on PostgreSQL", .timeLimit(.minutes(4)))
struct EngineParityTests {
    /// What one engine's run printed and stored, with what differs by nature (times, the store's name)
    /// taken out.
    struct Outcome: Equatable {
        var steps: [String]
        var clusters: [String]
        var publicItems: [String]
        /// The items each free-text search found, by identifier.
        var freeText: [String]
    }

    static func run(_ engine: StoreEngine, site: FixtureServer) async throws -> Outcome {
        let store = try await WorkersTestStore.make(engine)
        defer { store.cleanUp() }
        let base = site.url("")
        let donations = try String(contentsOf: Fixtures.file("donations/example.jsonl"), encoding: .utf8)
            .replacingOccurrences(of: "{{origin}}", with: String(base.dropLast()))
        let crawl = [
            "crawl", "--store", store.argument, "--allow-private-network", "--plain-http-app-site-association",
            "--json",
        ]
        var steps: [String] = []
        func step(_ arguments: [String], input: String? = nil) async throws {
            let outcome = try await CommandRunner.run(arguments, standardInput: input)
            steps.append("\(arguments[0]) → \(outcome.status)\n" + normalized(outcome.standardOutput))
        }
        try await step(crawl + [base])
        try await step(["import", "-", "--store", store.argument, "--json"], input: donations)
        try await step(["publish", "--store", store.argument, "--json"])
        try await step(crawl)
        try await step(["publish", "--store", store.argument, "--json"])
        try await step(["report", "--store", store.argument, "--format", "json"])
        try await step(["export", "--store", store.argument])
        try await step(["search", "--query", #"title == "*rye*"c || rating > 3"#, "--store", store.argument, "--json"])
        // Both engines search the same FTS5 index (a PostgreSQL store through its replica): the same answers,
        // totals, order and scores, to the byte.
        var found: [String] = []
        for text in ["lemon tart", "bread", "recipe"] {
            let outcome = try await CommandRunner.run(["search", text, "--store", store.argument, "--json"])
            found.append("\(text) → \(outcome.status): \(outcome.standardOutput)")
        }
        let clusters = try await store.lines(
            """
            SELECT key, CASE WHEN published THEN 'published' ELSE 'withheld' END, reason, matched_by, members
            FROM cluster ORDER BY key
            """)
        let items = try await store.lines(
            """
            SELECT unique_identifier, webpage_url, bundle, title, engagement, sources, item_json
            FROM public_item ORDER BY unique_identifier
            """)
        return Outcome(steps: steps, clusters: clusters, publicItems: items.map(normalized), freeText: found)
    }

    /// `text` without what two runs cannot share: times and durations, and the store's own name.
    static func normalized(_ text: String) -> String {
        var text = text
        for pattern in [
            #""(publishedAt|generatedAt|durationSeconds|earlierSeconds|lastSeen|expirationDate|fetchedAt)":("[^"]*"|[0-9.e+-]+)"#,
            #""store":"[^"]*""#,
        ] {
            text = text.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        }
        return text
    }

    @Test("crawl, import, publish, crawl, publish and report: the same outputs and the same public index")
    func samePipeline() async throws {
        let site = try await FixtureServer.start(site: "example")
        let sqlite = try await Self.run(.sqlite, site: site)
        let postgres = try await Self.run(.postgres, site: site)
        await site.stop()

        // The example donations hold one bad line on purpose: import exits 1.
        #expect(
            sqlite.steps.map { $0.prefix { $0 != "\n" } } == [
                "crawl → 0", "import → 1", "publish → 0", "crawl → 0", "publish → 0", "report → 0", "export → 0",
                "search → 0",
            ])
        #expect(sqlite.freeText.allSatisfy { $0.contains(" → 0: ") && $0.contains(#""score":"#) }, "\(sqlite.freeText)")
        #expect(sqlite.publicItems.count >= 5, "\(sqlite.publicItems)")
        for (index, pair) in zip(sqlite.steps, postgres.steps).enumerated() {
            #expect(pair.0 == pair.1, "step \(index)")
        }
        #expect(sqlite.clusters == postgres.clusters)
        #expect(sqlite.publicItems == postgres.publicItems)
        #expect(sqlite.freeText == postgres.freeText)
    }
}
