import Crawler
import FixtureServer
import Foundation
import Store
import TestSupport
import Testing

/// Conditional requests only on validators that can tell a change (RFC 9110 §8.8.2.2): a `Last-Modified` in
/// the same second as the response's `Date` is weak, since the resource may change again within that second
/// keeping its date, and an `If-Modified-Since` built on it would be answered 304 for content never seen.
@Suite("Conditional requests on strong validators only")
struct CrawlValidatorTests {
    static let day = 86_400.0
    /// A modification time, and the same second as the response's `Date`.
    static let sameSecond = "Mon, 01 Jan 2024 00:00:00 GMT"
    /// A `Date` well after ``sameSecond``: the `Last-Modified` is then strong.
    static let later = "Mon, 01 Jan 2024 00:00:10 GMT"

    static func setPage(_ server: FixtureServer, title: String, date: String) async {
        let html = "<!doctype html><title>\(title)</title><p>a page"
        await server.setBehaviour(
            .conditional(body: Array(html.utf8), etag: nil, lastModified: sameSecond, date: date), for: "/page.html")
    }

    static func setSitemap(_ server: FixtureServer, pages: [String]) async {
        let entries = pages.map { "<url><loc>\(server.url($0))</loc><lastmod>2099-01-01</lastmod></url>" }
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\(entries.joined())</urlset>"
        await server.setBehaviour(
            .conditional(
                body: Array(xml.utf8), etag: nil, lastModified: sameSecond, date: sameSecond,
                contentType: "application/xml"),
            for: "/sitemap.xml")
    }

    /// Crawls `/page.html` of `server` on a test clock, runs `change`, then refreshes 40 days later (the page is
    /// due), with the server's log emptied before the refresh; returns the refresh's summary.
    static func crawlAndRefresh(
        _ server: FixtureServer, into storage: TemporaryStore, between change: () async -> Void
    ) async throws -> CrawlSummary {
        let store = try storage.open()
        let clock = TestClock(Date().timeIntervalSince1970)
        let policy = RevisitPolicy(now: { clock.now() })
        _ = try await crawl(testConfiguration(seeds: [server.url("/page.html")]) { $0.revisit = policy }, into: store)
        await change()
        clock.set(clock.now() + day * 40)
        await server.resetStatistics()
        return try await crawl(
            testConfiguration(seeds: []) {
                $0.revisit = policy
                $0.refresh = true
            }, into: store)
    }

    /// The `If-Modified-Since` of the requests to `path`, in order (`nil` for a request without one).
    static func ifModifiedSince(_ server: FixtureServer, _ path: String) async -> [String?] {
        await server.requests(to: path).map { request in
            request.headers.first { $0.name.lowercased() == "if-modified-since" }?.value
        }
    }

    @Test("a sitemap rewritten within the second of the copy read is read again, and the pages it re-dates fetched")
    func sitemapWithinTheSecond() async throws {
        let server = try await FixtureServer.start()
        await server.setBehaviour(.text("User-agent: *\nSitemap: \(server.url("/sitemap.xml"))\n"), for: "/robots.txt")
        await Self.setSitemap(server, pages: ["/a.html"])
        await server.setBehaviour(.html("<title>A</title>"), for: "/a.html")
        await server.setBehaviour(.html("<title>B</title>"), for: "/b.html")
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        _ = try await crawl(testConfiguration(seeds: [server.url("/a.html")]), into: store)
        #expect(await pageTargets(server).contains("/a.html"))

        // The same second, the same Last-Modified: a new page listed.
        await Self.setSitemap(server, pages: ["/a.html", "/b.html"])
        await server.resetStatistics()
        let summary = try await crawl(testConfiguration(seeds: []) { $0.refresh = true }, into: store)
        #expect(await Self.ifModifiedSince(server, "/sitemap.xml") == [nil])
        #expect(summary.counters.sitemapsRead == 1)
        #expect(await pageTargets(server).contains("/b.html"))
        await server.stop()
    }

    @Test("a page changed within the second of its Last-Modified is fetched whole and its change stored")
    func pageWithinTheSecond() async throws {
        let server = try await FixtureServer.start()
        await Self.setPage(server, title: "First", date: Self.sameSecond)
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        _ = try await Self.crawlAndRefresh(server, into: storage) {
            await Self.setPage(server, title: "Second", date: Self.sameSecond)
        }
        #expect(await Self.ifModifiedSince(server, "/page.html") == [nil])
        let titles = try rows(storage.path, "SELECT title FROM page WHERE url LIKE '%/page.html'").compactMap {
            $0["title"]
        }
        #expect(titles == ["Second"])
        await server.stop()
    }

    @Test("a Last-Modified a second or more before the Date still makes the next visit conditional")
    func strongValidator() async throws {
        let server = try await FixtureServer.start()
        await Self.setPage(server, title: "First", date: Self.later)
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let summary = try await Self.crawlAndRefresh(server, into: storage) {}
        #expect(await Self.ifModifiedSince(server, "/page.html") == [Self.sameSecond])
        #expect(summary.counters.pagesUnchanged == 1)
        await server.stop()
    }

    @Test(
        "a full answer replaces the stored validators: one it lacks is dropped, not kept from an older answer",
        arguments: StoreEngine.allCases)
    func validatorsReplaced(engine: StoreEngine) async throws {
        let storage = try await CrawlStoreUnderTest.make(engine)
        defer { Task { await storage.cleanUp() } }
        let store = storage.store
        let host = "https://example.com"
        let worker = CrawlWorker(owner: "elsewhere/1/a", machine: "elsewhere", pid: 1)
        let run = try await store.beginRun(seeds: [], now: 0, worker: worker).id
        var batch = CrawlBatch()
        batch.candidates = [FrontierCandidate(url: "\(host)/p", host: host, depth: 1, source: .link)]
        _ = try await store.commit(batch, run: run, worker: nil)
        let id = try #require(
            try await store.claimURLs(run: run, host: host, worker: worker, now: 1, leaseUntil: 60, limit: 1).first?.id)

        func complete(_ change: (inout CrawlBatch.Completion) -> Void) async throws -> [String: String] {
            var completion = CrawlBatch.Completion(id: id, state: .queued, outcome: .indexed)
            change(&completion)
            var batch = CrawlBatch()
            batch.completions = [completion]
            _ = try await store.commit(batch, run: run, worker: worker)
            return try await storage.rows("SELECT etag, last_modified FROM crawl_url WHERE id = \(id)").first ?? [:]
        }
        var stored = try await complete { $0.replacesValidators(etag: "\"v1\"", lastModified: Self.sameSecond) }
        #expect(stored == ["etag": "\"v1\"", "last_modified": Self.sameSecond])
        // A 304 or a failure brings no validators: the stored ones stay.
        stored = try await complete { _ in }
        #expect(stored == ["etag": "\"v1\"", "last_modified": Self.sameSecond])
        // A full answer with only an ETag: the old Last-Modified goes.
        stored = try await complete { $0.replacesValidators(etag: "\"v2\"", lastModified: nil) }
        #expect(stored == ["etag": "\"v2\""])
    }
}
