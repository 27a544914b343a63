import FixtureServer
import Foundation
import GRDB
import Store
import TestSupport
import Testing

/// `kill -9` in the middle of `searchlight crawl`, at several points, then the same command again:
/// nothing fetched is lost, nothing is stored twice, only in-flight URLs are fetched again, and
/// the SQLite file stays sound.
@Suite("crawl resumes after SIGKILL")
struct CrawlResumeTests {
    static let pageCount = 120

    /// A generated site: page i links to the next three pages and to page i/2, so every page is
    /// reachable from the home page and most are linked several times.
    static func makeSite(pageCount: Int = pageCount) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resume-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<pageCount {
            let links = [index + 1, index + 2, index + 3, index / 2].filter { $0 < pageCount }
                .map { "<a href=\"/p\($0).html\">page \($0)</a>" }.joined(separator: " ")
            let html = """
                <!doctype html><html><head><title>Page \(index)</title>
                <meta name="description" content="Generated page \(index) of the resume test site."></head>
                <body><main><h1>Page \(index)</h1><p>\(String(repeating: "Some text. ", count: 40))</p>\(links)</main></body></html>
                """
            try Data(html.utf8).write(to: folder.appendingPathComponent("p\(index).html"))
        }
        try Data("<!doctype html><title>Home</title><a href=\"/p0.html\">start</a>".utf8)
            .write(to: folder.appendingPathComponent("index.html"))
        try Data("User-agent: *\nAllow: /\n".utf8).write(to: folder.appendingPathComponent("robots.txt"))
        return folder
    }

    @Test(
        "killed at three points with requests in flight, the rerun completes the crawl exactly",
        arguments: StoreEngine.allCases)
    func killAndResume(engine: StoreEngine) async throws {
        let site = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let server = try await FixtureServer.start(directory: site)
        let testStore = try await WorkersTestStore.make(engine)
        defer { testStore.cleanUp() }
        let storePath = testStore.argument
        let arguments = [
            "crawl", server.url("/"), "--store", storePath, "--allow-private-network", "--delay", "0",
            "--per-host", "2", "--json",
        ]

        // Each kill point is made deterministic, whatever the machine's load: two pages never
        // answer, so once both are in flight (the per-host cap is 2) the crawl can go no further,
        // and it is killed right there with exactly those two requests in flight.
        let gates = [["/p10.html", "/p11.html"], ["/p40.html", "/p41.html"], ["/p80.html", "/p81.html"]]
        for (round, pair) in gates.enumerated() {
            if round > 0 {
                for path in gates[round - 1] { await server.removeBehaviour(for: path) }
            }
            for path in pair { await server.setBehaviour(.hang, for: path) }
            let process = try KillableProcess(CommandRunner.executable, arguments)
            let stalled = await Self.waitUntilRequested(pair, from: server)
            try #require(stalled, "the crawl never reached \(pair)")
            // The fetch that freed a slot for the second gate has just ended; its result is written a
            // moment later (a store transaction on PostgreSQL takes milliseconds): kill once it is.
            try #require(await Self.waitUntilStored(except: pair, from: server, in: testStore))
            process.kill()
            #expect(await process.waitForExit() == 128 + SIGKILL)
            // The file is sound after every kill.
            if engine == .sqlite { #expect(try SQLiteStore(path: storePath).integrityCheck() == ["ok"]) }
        }
        for path in gates[gates.count - 1] { await server.removeBehaviour(for: path) }
        let final = try await CommandRunner.run(arguments)
        let requests = await server.requests()
        await server.stop()
        #expect(final.status == 0, "\(final.standardError)")
        #expect(final.standardOutput.contains(#""resumed":true"#))
        #expect(final.standardOutput.contains(#""finished":true"#))

        // Every page stored exactly once, every frontier URL done.
        if engine == .sqlite { #expect(try SQLiteStore(path: storePath).integrityCheck() == ["ok"]) }
        let counts = try await storeCounts(testStore)
        #expect(counts.pages == Self.pageCount + 1)
        #expect(counts.notDone == 0)
        #expect(counts.distinctURLs == counts.urls)

        // Only what was in flight at each kill was fetched again: the stalled pairs, twice each. (On a
        // machine so loaded that a stalled request outlives the 20 s low-speed timeout, the crawler
        // rightly retries it once more before the kill; the fetch log must then show that timeout.)
        let pageRequests = requests.filter { $0.route.hasPrefix("/p") || $0.route == "/" }.map(\.route)
        let repeats = Dictionary(grouping: pageRequests, by: { $0 }).mapValues(\.count).filter { $0.value > 1 }
        #expect(Set(pageRequests).count == Self.pageCount + 1, "every page was requested")
        let gatePaths = Set(gates.joined())
        let unexpected = repeats.filter { !gatePaths.contains($0.key) }
        let gateCounts = gatePaths.map { path in pageRequests.filter { $0 == path }.count }
        #expect(unexpected.isEmpty, "refetched though not in flight: \(unexpected)")
        #expect(gateCounts.allSatisfy { $0 >= 2 })
        let retried = repeats.filter { $0.value > 2 }.keys
        if !retried.isEmpty {
            let timeouts = try await testStore.lines("SELECT url FROM fetch_log WHERE outcome LIKE 'error.%timeout'")
            #expect(retried.allSatisfy { path in timeouts.contains { $0.hasSuffix(path) } }, "\(repeats)")
        }
    }

    @Test(
        "Ctrl-C stops cleanly: what finished is committed, the summary says stopped, the rerun resumes",
        arguments: StoreEngine.allCases)
    func interrupt(engine: StoreEngine) async throws {
        let site = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let server = try await FixtureServer.start(directory: site)
        let testStore = try await WorkersTestStore.make(engine)
        defer { testStore.cleanUp() }
        let arguments = [
            "crawl", server.url("/"), "--store", testStore.argument,
            "--allow-private-network", "--delay", "0", "--json",
        ]
        for path in ["/p20.html", "/p21.html"] { await server.setBehaviour(.hang, for: path) }
        let process = try KillableProcess(CommandRunner.executable, arguments)
        try #require(await Self.waitUntilRequested(["/p20.html", "/p21.html"], from: server))
        process.interrupt()
        #expect(await process.waitForExit() == 0)
        let stopped = process.standardOutput
        #expect(stopped.contains(#""finished":false"#), "\(stopped)")
        #expect(stopped.contains(#""resumed":false"#))

        for path in ["/p20.html", "/p21.html"] { await server.removeBehaviour(for: path) }
        let resumed = try await CommandRunner.run(arguments)
        await server.stop()
        #expect(resumed.status == 0)
        #expect(resumed.standardOutput.contains(#""resumed":true"#))
        #expect(resumed.standardOutput.contains(#""finished":true"#))
        #expect(resumed.standardOutput.contains(#""pagesFetched":\#(Self.pageCount + 1)"#))
    }

    /// Waits (bounded) until every page requested so far, except `paths`, has its result in the store.
    static func waitUntilStored(
        except paths: [String], from server: FixtureServer, in store: WorkersTestStore
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let requested = Set(await server.requests().map(\.route)).subtracting(paths)
                .filter { $0.hasPrefix("/p") || $0 == "/" }
            if requested.isEmpty { return true }
            let list = requested.map { "'\(server.url($0))'" }.joined(separator: ", ")
            let unwritten = try await store.count(
                "SELECT COUNT(*) FROM crawl_url WHERE state = 'queued' AND url IN (\(list))")
            if unwritten == 0 { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Waits (bounded, polling the request log) until every path in `paths` was requested.
    static func waitUntilRequested(_ paths: [String], from server: FixtureServer) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let routes = await server.requests().map(\.route)
            if paths.allSatisfy(routes.contains) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Counts read from the store on a connection of the test's own.
    func storeCounts(_ store: WorkersTestStore) async throws -> (pages: Int, notDone: Int, urls: Int, distinctURLs: Int)
    {
        (
            try await store.count("SELECT COUNT(*) FROM page"),
            try await store.count("SELECT COUNT(*) FROM crawl_url WHERE state NOT IN ('done', 'skipped')"),
            try await store.count("SELECT COUNT(*) FROM crawl_url"),
            try await store.count("SELECT COUNT(DISTINCT url) FROM crawl_url")
        )
    }
}
