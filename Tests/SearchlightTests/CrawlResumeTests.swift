import FixtureServer
import Foundation
import GRDB
import Store
import Testing

/// `kill -9` in the middle of `searchlight crawl`, at several points, then the same command again:
/// nothing fetched is lost, nothing is stored twice, only in-flight URLs are fetched again, and
/// the SQLite file stays sound.
@Suite("crawl resumes after SIGKILL")
struct CrawlResumeTests {
    static let pageCount = 120

    /// A generated site: page i links to the next three pages and to page i/2, so every page is
    /// reachable from the home page and most are linked several times.
    static func makeSite() throws -> URL {
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

    @Test("killed after 10, 45 and 90 page requests, the rerun completes the crawl exactly")
    func killAndResume() async throws {
        let site = try Self.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let server = try await FixtureServer.start(directory: site)
        // Slow pages so that the kills land mid-crawl with requests in flight.
        for index in 0..<Self.pageCount {
            let body = try [UInt8](Data(contentsOf: site.appendingPathComponent("p\(index).html")))
            let page = FixtureBehaviour.respond(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: body)
            await server.setBehaviour(.slowFirstByte(delay: .milliseconds(15), then: page), for: "/p\(index).html")
        }
        let storeFolder = FileManager.default.temporaryDirectory.appendingPathComponent("resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: storeFolder) }
        let storePath = storeFolder.appendingPathComponent("searchlight.sqlite").path
        let arguments = [
            "crawl", server.url("/"), "--store", storePath, "--allow-private-network", "--delay", "0",
            "--per-host", "2", "--json",
        ]

        var kills = 0
        for killPoint in [10, 45, 90] {
            let process = try KillableProcess(CommandRunner.executable, arguments)
            let reached = await server.waitForRequests(killPoint, timeout: .seconds(60))
            try #require(reached, "the crawl never reached \(killPoint) requests")
            process.kill()
            let status = await process.waitForExit()
            #expect(status == SIGKILL)
            kills += 1
            // The file is sound after every kill.
            #expect(try Store(path: storePath).integrityCheck() == ["ok"])
        }
        let final = try await CommandRunner.run(arguments)
        let requests = await server.requests()
        await server.stop()
        #expect(final.status == 0, "\(final.standardError)")
        #expect(final.standardOutput.contains(#""resumed":true"#))
        #expect(final.standardOutput.contains(#""finished":true"#))

        // Every page stored exactly once, every frontier URL done.
        let store = try Store(path: storePath)
        #expect(try store.integrityCheck() == ["ok"])
        let counts = try storeCounts(storePath)
        #expect(counts.pages == Self.pageCount + 1)
        #expect(counts.notDone == 0)
        #expect(counts.distinctURLs == counts.urls)

        // Only what was in flight at each kill was fetched again: with two requests per host in
        // flight, at most two pages per kill are requested twice, none three times.
        let pageRequests = requests.filter { $0.route.hasPrefix("/p") || $0.route == "/" }.map(\.route)
        let repeats = Dictionary(grouping: pageRequests, by: { $0 }).mapValues(\.count).filter { $0.value > 1 }
        #expect(Set(pageRequests).count == Self.pageCount + 1, "every page was requested")
        #expect(repeats.values.allSatisfy { $0 == 2 }, "\(repeats)")
        #expect(repeats.count <= 2 * kills, "refetched: \(repeats.keys.sorted())")
        // The kills landed mid-crawl: something was in flight each time.
        #expect(!repeats.isEmpty)
    }

    /// Counts read straight from the SQLite file, on a connection of the test's own.
    func storeCounts(_ path: String) throws -> (pages: Int, notDone: Int, urls: Int, distinctURLs: Int) {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? -1 }
            return (
                try count("SELECT COUNT(*) FROM page"),
                try count("SELECT COUNT(*) FROM crawl_url WHERE state NOT IN ('done', 'skipped')"),
                try count("SELECT COUNT(*) FROM crawl_url"),
                try count("SELECT COUNT(DISTINCT url) FROM crawl_url")
            )
        }
    }
}
