import Crawler
import FixtureServer
import Foundation
import Store
import TestSupport
import Testing

@Suite("Crawl-delay, redirect chains, URL length, gzip sitemaps and bad seeds")
struct CrawlEdgeTests {
    @Test("Crawl-delay spaces requests, capped at the configured maximum", arguments: [(0.2, 10.0), (30.0, 0.2)])
    func crawlDelay(crawlDelay: Double, cap: Double) async throws {
        let server = try await startCrawlSite()
        await server.setBehaviour(.text("User-agent: *\nCrawl-delay: \(crawlDelay)\n"), for: "/robots.txt")
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        _ = try await crawl(
            testConfiguration(seeds: [server.url("/")]) {
                $0.maxPages = 4
                $0.maxCrawlDelay = cap
            }, into: try storage.open())
        await server.stop()
        let times = try pageDispatchTimes(storage.path)
        #expect(times.count == 4)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= 0.199)
        }
        // The cap works: each gap would be 30 s without it. Measured between the dispatches, not from the
        // test's start, which a full parallel suite on two cores can delay by a minute.
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier < 15)
        }
    }

    @Test("Crawl-delay spaces every request to the host: robots.txt, the association file, sitemaps and pages")
    func crawlDelaySpacesTheFirstRequests() async throws {
        let server = try await startCrawlSite()
        await server.setBehaviour(
            .text("User-agent: *\nCrawl-delay: 0.4\nSitemap: \(server.url("/sitemaps/pages.xml"))\n"),
            for: "/robots.txt")
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        _ = try await crawl(
            testConfiguration(seeds: [server.url("/")]) { $0.maxPages = 2 }, into: try storage.open())
        await server.stop()
        // The crawler's own dispatch times (the server's receive times jitter on a loaded machine).
        let log = try rows(storage.path, "SELECT url, at FROM fetch_log ORDER BY at")
        let paths = log.compactMap { $0["url"].flatMap { URL(string: $0)?.path } }
        #expect(paths.starts(with: ["/robots.txt", "/.well-known/apple-app-site-association"]), "\(paths)")
        #expect(paths.contains("/sitemaps/pages.xml"))
        let times = log.compactMap { $0["at"].flatMap(Double.init) }
        for (index, (earlier, later)) in zip(times, times.dropFirst()).enumerated() {
            #expect(later - earlier >= 0.399, "\(paths[index]) → \(paths[index + 1])")
        }
    }

    @Test("a redirect chain longer than five hops ends; every hop is recorded")
    func redirectChain() async throws {
        let server = try await startCrawlSite()
        for hop in 0..<8 {
            await server.setBehaviour(.redirect(status: 302, location: "/hop\(hop + 1).html"), for: "/hop\(hop).html")
        }
        await server.setBehaviour(.html("<title>Hops</title><a href=/hop0.html>start</a>"), for: "/")
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let summary = try await crawl(testConfiguration(seeds: [server.url("/")]), into: try storage.open())
        let targets = await requestedTargets(server)
        await server.stop()
        // hop0 (linked) plus five redirect hops are requested; the sixth hop is not followed.
        #expect(targets.filter { $0.hasPrefix("/hop") } == (0...5).map { "/hop\($0).html" })
        #expect(summary.counters.skipped["redirect-limit"] == 1)
        let redirects = try rows(storage.path, "SELECT COUNT(*) AS n FROM redirect")
        #expect(redirects.first?["n"] == "5")
    }

    @Test("over-long URLs are not queued")
    func urlLength() async throws {
        let server = try await startCrawlSite()
        let long = "/" + String(repeating: "x", count: 300) + ".html"
        await server.setBehaviour(.html("<title>Long</title><a href=\(long)>long</a><a href=/a.html>a</a>"), for: "/")
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let summary = try await crawl(
            testConfiguration(seeds: [server.url("/")]) { $0.maxURLLength = 200 }, into: try storage.open())
        let targets = await requestedTargets(server)
        await server.stop()
        #expect(!targets.contains(long))
        #expect(targets.contains("/a.html"))
        #expect(summary.counters.skipped["url-length"] == 1)
    }

    @Test("a gzip sitemap named in robots.txt is read")
    func gzipSitemap() async throws {
        let server = try await startCrawlSite()
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>\(server.url("/orphan.html"))</loc></url></urlset>
            """
        let gzipped = try await gzip(Array(xml.utf8))
        await server.setBehaviour(
            .respond(status: 200, headers: [("Content-Type", "application/x-gzip")], body: gzipped),
            for: "/sitemap.xml.gz")
        await server.setBehaviour(
            .text("User-agent: *\nAllow: /\nSitemap: \(server.url("/sitemap.xml.gz"))\n"), for: "/robots.txt")
        await server.setBehaviour(.html("<title>Home</title>"), for: "/")
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let summary = try await crawl(testConfiguration(seeds: [server.url("/")]), into: try storage.open())
        let targets = await requestedTargets(server)
        await server.stop()
        #expect(targets.contains("/orphan.html"))
        #expect(summary.counters.sitemapURLs == 1)
    }

    @Test("the fetcher's address policy holds in a crawl: loopback refused by default, nothing reaches it")
    func addressPolicy() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let summary = try await crawl(
            testConfiguration(seeds: [server.url("/")]) { $0.fetch.addressPolicy = .publicOnly },
            into: try storage.open())
        let connections = await server.totalConnections()
        await server.stop()
        #expect(connections == 0)
        #expect(summary.counters.pagesFetched == 0)
        // A refusal is final: robots.txt is tried once, not retried; the host is given up as an error.
        #expect(summary.counters.errors == ["address-refused": 1])
        #expect(summary.counters.skipped["address-refused"] == 1)
        let log = try rows(storage.path, "SELECT detail FROM fetch_log").compactMap { $0["detail"] }
        #expect(log.count == 1 && log.allSatisfy { $0.contains("loopback") }, "\(log)")
        let seed = try rows(storage.path, "SELECT state, outcome FROM crawl_url")
        #expect(seed == [["state": "failed", "outcome": "address-refused"]])
    }

    @Test("bad seeds and patterns are refused before the store is touched")
    func badConfiguration() async throws {
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        await #expect(throws: CrawlError.self) {
            _ = try await crawl(testConfiguration(seeds: ["ftp://example.org/"]), into: store)
        }
        await #expect(throws: CrawlError.self) {
            _ = try await crawl(
                testConfiguration(seeds: ["http://127.0.0.1:9/"]) { $0.excludePatterns = [""] }, into: store)
        }
        #expect(try rows(storage.path, "SELECT * FROM crawl_run").isEmpty)
        // No seeds and nothing unfinished: an empty, finished pass.
        let empty = try await crawl(testConfiguration(seeds: []), into: store)
        #expect(empty.finished && empty.counters.pagesFetched == 0)
    }
}

/// Gzips `bytes` with the system's gzip, for a sitemap served as a `.gz` file (waited for on a thread of
/// its own, never blocking a thread of the cooperative pool).
func gzip(_ bytes: [UInt8]) async throws -> [UInt8] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("sitemap.xml")
    try Data(bytes).write(to: file)
    _ = try await RunningChild(["/bin/gzip", "-9", file.path], directory: folder).waitForExit()
    return try [UInt8](Data(contentsOf: folder.appendingPathComponent("sitemap.xml.gz")))
}
