import FixtureServer
import Foundation
import Store
import Testing

/// SPEC §1: several processes use one store at once. A crawl, an import, publishes and a searcher run
/// together against one SQLite file; nothing fails with `database is locked`, nothing is lost, and the
/// searcher is never held up by the writers (WAL). Durations are measured and printed, never asserted.
@Suite("one store shared by concurrent processes")
struct SharedStoreTests {
    /// Generated site: 1 + 12 × (1 + 25) = 313 public pages.
    static let sections = 12
    static let pagesPerSection = 25
    static var pageCount: Int { 1 + sections * (1 + pagesPerSection) }

    @Test("a crawl, an import, publishes and searches at once lose nothing and never meet a locked store")
    func crawlImportPublishSearch() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try SharedStoreFixtures.writeSite(in: site, sections: Self.sections, pages: Self.pagesPerSection)
        let server = try await FixtureServer.start(directory: site)
        // Activities naming pages of the site: the importer queues those not crawled yet, the crawl
        // resolves them — the two processes meet in `pending_url` and `crawl_url`.
        let webPages = (0..<60).map {
            server.url(SharedStoreFixtures.pagePath(section: $0 % Self.sections, page: $0 / Self.sections))
        }
        let donations = folder.appendingPathComponent("donations.jsonl")
        let records = try SharedStoreFixtures.writeDonations(
            to: donations, activities: 10_000, searchableItems: 1_000, webPages: webPages)

        // The reference: the same work, one process after another, into a fresh store.
        let reference = folder.appendingPathComponent("reference.sqlite").path
        let commands = SharedStoreCommands(server: server, donations: donations.path)
        let sequentialClock = Timeline()
        var referenceRuns: [TimedRun] = []
        for (name, arguments) in commands.sequential(store: reference) {
            let run = try await sequentialClock.run(name, arguments)
            #expect(run.status == 0, "\(name): \(run.standardError)")
            referenceRuns.append(run)
        }
        let expected = try StoreContents(path: reference)

        // The same work at once against one store, with a searcher reading throughout.
        let shared = folder.appendingPathComponent("shared.sqlite").path
        _ = try SQLiteStore(path: shared)  // the schema, so the searcher can start with the others
        let timeline = Timeline()
        let searcher = SearchLoop(path: shared)
        let probe = WriteLockProbe(path: shared)
        async let crawl = timeline.run("crawl", commands.crawl(store: shared))
        async let load = timeline.run("import", commands.importFile(store: shared))
        async let publishes = timeline.publishTwice(commands.publish(store: shared))
        let concurrent = try await [crawl, load] + publishes
        let final = try await timeline.run("final publish", commands.publish(store: shared))
        let search = await searcher.stop()
        let lock = await probe.stop()
        await server.stop()

        for run in concurrent + [final] {
            #expect(run.status == 0, "\(run.name): \(run.standardError)")
            #expect(!Self.mentionsLocking(run.standardError), "\(run.name): \(run.standardError)")
        }
        #expect(search.errors.isEmpty, "\(search.errors.prefix(5))")
        #expect(search.queries > 0)
        #expect(lock.errors.isEmpty, "\(lock.errors.prefix(5))")
        #expect(try integrityCheck(path: shared) == ["ok"])

        // Nothing lost: the crawl stored every page, the import every record, the publish every item.
        let contents = try StoreContents(path: shared)
        #expect(contents.counts["page indexable"] == Self.pageCount)
        #expect(expected.counts["page indexable"] == Self.pageCount)
        #expect(contents.counts == expected.counts)
        #expect(contents.publishedIdentifiers == expected.publishedIdentifiers)
        #expect(try Self.importCounts(concurrent[1]) == Self.importCounts(referenceRuns[1]))
        #expect(try Self.crawlFetched(concurrent[0]) == Self.crawlFetched(referenceRuns[0]))

        print(
            """
            shared store: \(records) donation records, \(Self.pageCount) pages
              sequential: \(referenceRuns.map(\.summary).joined(separator: ", "))
              concurrent: \((concurrent + [final]).map(\.summary).joined(separator: ", "))
              searcher: \(search.queries) queries, longest \(search.longest.milliseconds) \
            (longest wait for a snapshot \(search.longestSnapshotWait.milliseconds)), \
            p50 \(search.quantile(0.5).milliseconds), p99 \(search.quantile(0.99).milliseconds), \
            at most \(search.mostMatches) matches
              write lock: taken \(lock.acquisitions) times, longest wait \(lock.longestWait.milliseconds) \
            (ended at \(String(format: "%.2f", lock.longestWaitEndedAt)) s)
              contents: \(contents)
            """)
    }

    static func mentionsLocking(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return ["database is locked", "sqlite_busy", "database table is locked", "sqlite error 5", "sqlite error 6"]
            .contains { lowered.contains($0) }
    }

    /// The import's counts that do not depend on the crawl's progress (`pendingURLs` does).
    static func importCounts(_ run: TimedRun) throws -> [Int] {
        let summary = try jsonObject(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        return ["records", "rejected", "newDonations", "storedActivities", "belowThreshold", "searchableItems"].map {
            summary[$0] as? Int ?? -1
        }
    }

    static func crawlFetched(_ run: TimedRun) throws -> Int {
        let summary = try jsonObject(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        return (summary["counters"] as? [String: Any])?["pagesFetched"] as? Int ?? -1
    }

}
