import FixtureServer
import Foundation
import TestSupport
import Testing

/// Two `crawl --refresh` processes sharing one refresh pass, on either engine: the pages a sitemap made due
/// are fetched once each between them, and both summaries count the whole pass.
@Suite("crawl --refresh with two workers")
struct CrawlRefreshWorkersTests {
    /// The workers test's slow site, with a sitemap listing every page with `lastmod`.
    static func setSitemap(_ server: FixtureServer, lastModified: String) async {
        let entries = (0..<CrawlWorkersTests.pageCount).map {
            "<url><loc>\(server.url("/p\($0).html"))</loc><lastmod>\(lastModified)</lastmod></url>"
        }
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\(entries.joined())</urlset>"
        await server.setBehaviour(
            .respond(status: 200, headers: [("Content-Type", "application/xml")], body: Array(xml.utf8)),
            for: "/sitemap.xml")
    }

    @Test("every page the sitemap dated anew is fetched once, by one of the two", arguments: StoreEngine.allCases)
    func twoWorkers(engine: StoreEngine) async throws {
        let (server, site) = try await CrawlWorkersTests.startSite()
        defer { try? FileManager.default.removeItem(at: site) }
        await Self.setSitemap(server, lastModified: "2020-01-01")
        let testStore = try await WorkersTestStore.make(engine)
        defer { testStore.cleanUp() }
        let first = try await CommandRunner.run(CrawlWorkersTests.arguments(server, store: testStore.argument))
        #expect(first.status == 0, "\(first.standardError)")

        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        await Self.setSitemap(server, lastModified: formatter.string(from: Date().addingTimeInterval(0.001)))
        await server.resetStatistics()
        let arguments = [
            "crawl", "--refresh", "--store", testStore.argument, "--allow-private-network", "--delay", "0",
            "--per-host", "2", "--plain-http-app-site-association", "--json",
        ]
        let workers = try (0..<2).map { _ in try KillableProcess(CommandRunner.executable, arguments) }
        var statuses: [Int32] = []
        for worker in workers { statuses.append(await worker.waitForExit()) }
        let pages = await server.requests().map(\.route).filter { $0.hasPrefix("/p") }
        await server.stop()

        #expect(statuses == [0, 0], "\(workers.map(\.standardError))")
        let repeats = Dictionary(grouping: pages, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeats.isEmpty, "requested more than once: \(repeats)")
        #expect(Set(pages).count == CrawlWorkersTests.pageCount)
        let summaries = try workers.map {
            try JSONSerialization.jsonObject(with: Data($0.standardOutput.utf8)) as? [String: Any]
        }
        #expect(Set(summaries.map { $0?["run"] as? Int ?? -1 }).count == 1)
        // Whichever worker finished last waited for the other's counts; the first may have left before.
        let refreshes = summaries.compactMap { $0?["refresh"] as? [String: Int] }
        #expect(refreshes.count == 2)
        #expect(
            refreshes.contains {
                $0["due"] == CrawlWorkersTests.pageCount && $0["unchanged"] == CrawlWorkersTests.pageCount
            })
        let own = summaries.map { (($0?["workerCounters"] as? [String: Any])?["pagesFetched"] as? Int) ?? -1 }
        #expect(own.reduce(0, +) == CrawlWorkersTests.pageCount, "\(own)")
        #expect(try await testStore.count("SELECT COUNT(*) FROM crawl_run WHERE finished_at IS NULL") == 0)
    }
}
