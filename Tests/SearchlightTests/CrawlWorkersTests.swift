import FixtureServer
import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// Three `searchlight crawl` processes on one store (SQLite, and PostgreSQL) and one loopback site, checked against the
/// server's own request log: each URL is fetched once, the per-host cap holds across the workers,
/// robots.txt is fetched once per pass, and a worker killed mid-crawl loses nothing.
@Suite("many crawl workers on one store")
struct CrawlWorkersTests {
    static let pageCount = 150

    /// The resume test's generated site, each page answering after a short wait so that requests of
    /// different workers overlap.
    static func startSite() async throws -> (FixtureServer, URL) {
        let site = try CrawlResumeTests.makeSite(pageCount: pageCount)
        let server = try await FixtureServer.start(directory: site)
        for index in 0..<pageCount {
            let path = "/p\(index).html"
            let body = try Data(contentsOf: site.appendingPathComponent(String(path.dropFirst())))
            await server.setBehaviour(
                .slowFirstByte(
                    delay: .milliseconds(15),
                    then: .respond(status: 200, headers: [("Content-Type", "text/html")], body: Array(body))),
                for: path)
        }
        return (server, site)
    }

    static func arguments(_ server: FixtureServer, store: String, lease: Int = 60) -> [String] {
        [
            "crawl", server.url("/"), "--store", store, "--allow-private-network", "--delay", "0", "--per-host", "2",
            "--lease", "\(lease)", "--plain-http-app-site-association", "--json",
        ]
    }

    @Test(
        "three workers: every URL requested once, at most --per-host at a time, robots.txt once",
        arguments: StoreEngine.allCases)
    func threeWorkers(engine: StoreEngine) async throws {
        let (server, site) = try await Self.startSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let testStore = try await WorkersTestStore.make(engine)
        defer { testStore.cleanUp() }
        let store = testStore.argument
        let workers = try (0..<3).map { _ in
            try KillableProcess(CommandRunner.executable, Self.arguments(server, store: store))
        }
        var statuses: [Int32] = []
        for worker in workers { statuses.append(await worker.waitForExit()) }
        let requests = await server.requests().map(\.route)
        let peak = await server.peakConcurrentRequests()
        await server.stop()

        #expect(statuses == [0, 0, 0], "\(workers.map(\.standardError))")
        let repeats = Dictionary(grouping: requests, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeats.isEmpty, "requested more than once: \(repeats)")
        // Every page, the home page, robots.txt, /sitemap.xml and the association file.
        #expect(Set(requests).count == Self.pageCount + 4)
        #expect(requests.filter { $0 == "/robots.txt" }.count == 1)
        #expect(peak <= 2, "the host saw \(peak) requests at once")

        // The work was shared, each page stored once, and each summary counts the whole pass.
        let summaries = try workers.map {
            try JSONSerialization.jsonObject(with: Data($0.standardOutput.utf8)) as? [String: Any]
        }
        let own = summaries.map { (($0?["workerCounters"] as? [String: Any])?["pagesFetched"] as? Int) ?? -1 }
        #expect(own.reduce(0, +) == Self.pageCount + 1, "\(own)")
        #expect(own.filter { $0 > 0 }.count >= 2, "only one worker fetched pages: \(own)")
        let passes = Set(summaries.map { $0?["run"] as? Int ?? -1 })
        #expect(passes.count == 1)
        let counts = try await storeCounts(testStore)
        #expect(counts.pages == Self.pageCount + 1 && counts.notDone == 0 && counts.leased == 0)
        #expect(counts.finishedRuns == 1)
    }

    @Test(
        "a worker killed mid-crawl: the others take its URLs over and finish, refetching only its requests",
        arguments: StoreEngine.allCases)
    func killedWorker(engine: StoreEngine) async throws {
        let (server, site) = try await Self.startSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let testStore = try await WorkersTestStore.make(engine)
        defer { testStore.cleanUp() }
        let store = testStore.argument
        await server.setBehaviour(.hang, for: "/p30.html")
        let workers = try (0..<3).map { _ in
            try KillableProcess(CommandRunner.executable, Self.arguments(server, store: store, lease: 5))
        }
        try #require(await CrawlResumeTests.waitUntilRequested(["/p30.html"], from: server))
        // The worker fetching the page that never answers is the one killed, with its requests in flight.
        let owner = try #require(
            try await testStore.lines("SELECT lease_owner FROM crawl_url WHERE url = '\(server.url("/p30.html"))'")
                .first)
        let victim = try #require(workers.first { owner.contains("/\($0.processIdentifier)/") })
        let inFlight = await server.requests().count
        // Under load the test may wake late, after a worker's fetch of the page timed out and was tried
        // again; those requests were not in flight at the kill and count as the victim's past.
        let hungBefore = await server.requests(to: "/p30.html").count
        // The victim's request keeps hanging until its socket closes; the survivors' retry gets the page.
        await server.removeBehaviour(for: "/p30.html")
        let killedAt = Date().timeIntervalSince1970
        victim.kill()
        #expect(await victim.waitForExit() == 128 + SIGKILL)
        var statuses: [Int32] = []
        for worker in workers where worker !== victim { statuses.append(await worker.waitForExit()) }
        let requests = await server.requests().map(\.route)
        await server.stop()

        #expect(statuses == [0, 0], "\(workers.map(\.standardError))")
        #expect(inFlight > 0)
        let repeats = Dictionary(grouping: requests, by: { $0 }).mapValues(\.count).filter { $0.value > 1 }
        // The page it hung on is fetched again; besides it, at most its other slot's request.
        let attempts = try await testStore.lines(
            "SELECT at - \(killedAt), outcome, detail FROM fetch_log WHERE url LIKE '%/p30.html'")
        #expect(repeats["/p30.html"] == hungBefore + 1, "p30's fetches, seconds after the kill: \(attempts)")
        let others = repeats.filter { $0.key != "/p30.html" }
        #expect(others.count <= 1 && others.values.allSatisfy { $0 == 2 }, "\(repeats)")
        #expect(Set(requests).count == Self.pageCount + 4)
        let counts = try await storeCounts(testStore)
        #expect(counts.pages == Self.pageCount + 1 && counts.notDone == 0 && counts.distinctURLs == counts.urls)
        if engine == .sqlite { #expect(try SQLiteStore(path: store).integrityCheck() == ["ok"]) }
    }

    func storeCounts(_ store: WorkersTestStore) async throws -> (
        pages: Int, notDone: Int, leased: Int, urls: Int, distinctURLs: Int, finishedRuns: Int
    ) {
        (
            try await store.count("SELECT COUNT(*) FROM page"),
            try await store.count("SELECT COUNT(*) FROM crawl_url WHERE state NOT IN ('done', 'skipped')"),
            try await store.count("SELECT COUNT(*) FROM crawl_url WHERE lease_owner IS NOT NULL"),
            try await store.count("SELECT COUNT(*) FROM crawl_url"),
            try await store.count("SELECT COUNT(DISTINCT url) FROM crawl_url"),
            try await store.count("SELECT COUNT(*) FROM crawl_run WHERE finished_at IS NOT NULL")
        )
    }
}
