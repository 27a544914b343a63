import Crawler
import FixtureServer
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

/// Adds rows to `pending_url` the way the importer does (key: the URL's canonical key).
/// Queues `urls` as the importer does for activities that reached the threshold, each donated by `app` (the
/// crawl site's association file names `org.example.crawl`).
func addPending(_ urls: [String], to path: String, app: String = "org.example.crawl") throws {
    _ = try SQLiteStore(path: path)  // the schema
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
        for url in urls {
            let key = FrontierCandidate.key(for: url)
            try db.execute(
                sql: "INSERT INTO pending_url (url_key, url, added_at) VALUES (?, ?, 0)", arguments: [key, url])
            try db.execute(
                sql: """
                    INSERT INTO activity (identity, bundle, activity_type, webpage_url, url_key, donors, first_seen,
                                          last_seen)
                    VALUES (?, ?, 'view', ?, ?, 3, 0, 0)
                    """,
                arguments: [Data((app + url).utf8), app, url, key])
        }
    }
    try queue.close()
}

/// Makes `server` associate `app` (the default donor of ``addPending(_:to:app:)``) in its
/// apple-app-site-association, as a site whose donated pages a crawl outside its scope may fetch.
func associate(_ server: FixtureServer, app: String = "org.example.crawl") async {
    await server.setBehaviour(
        .respond(
            status: 200, headers: [("Content-Type", "application/json")],
            body: Array(#"{"webcredentials":{"apps":["ABCDE12345.\#(app)"]}}"#.utf8)),
        for: "/.well-known/apple-app-site-association")
}

/// The request targets other than robots.txt and apple-app-site-association.
func pageTargets(_ server: FixtureServer) async -> [String] {
    await requestedTargets(server).filter { $0 != "/robots.txt" && !$0.hasPrefix("/.well-known/") }
}

@Suite("crawl also fetches the pending web pages of imported activities")
struct CrawlPendingTests {
    @Test("with no seeds: pending pages fetched and stored, redirects followed, links not followed, rows resolved")
    func pendingOnly() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        try addPending([server.url("/a.html"), server.url("/old.html"), "ftp://example.org/file"], to: storage.path)
        let summary = try await crawl(testConfiguration(seeds: []), into: store)
        let targets = await pageTargets(server)
        await server.stop()

        #expect(summary.finished)
        // a.html links to /, b.html and a.html?variant=1: none is followed without seeds. old.html
        // redirects to new.html, which is verified too.
        #expect(targets.sorted() == ["/a.html", "/new.html", "/old.html"])
        #expect(summary.counters.pagesFetched == 3)
        let pages = try rows(storage.path, "SELECT url, is_indexable FROM page ORDER BY url")
        #expect(pages.map { $0["url"] } == [server.url("/a.html"), server.url("/new.html")])
        let entries = try rows(storage.path, "SELECT url, source, depth, state, outcome FROM crawl_url ORDER BY url")
        let bySource = Dictionary(grouping: entries, by: { $0["source"] ?? "" })
        #expect(bySource["activity"]?.count == 3)
        #expect(bySource["activity-redirect"]?.map { $0["url"] } == [server.url("/new.html")])
        #expect(entries.first { $0["url"] == "ftp://example.org/file" }?["outcome"] == "invalid-url")
        #expect(entries.allSatisfy { $0["state"] != "queued" })
        #expect(try rows(storage.path, "SELECT * FROM pending_url").isEmpty)

        // Nothing pending, no seeds, no unfinished pass: nothing to do.
        let idle = try await crawl(testConfiguration(seeds: []), into: store)
        #expect(idle.counters.pagesFetched == 0 && idle.finished)
    }

    @Test("a pending page disallowed by robots.txt is not fetched; its row is resolved as skipped")
    func robotsDisallowed() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let secret = server.url("/private/secret.html")
        try addPending([secret], to: storage.path)
        let summary = try await crawl(testConfiguration(seeds: []), into: try storage.open())
        let targets = await requestedTargets(server)
        await server.stop()

        #expect(!targets.contains("/private/secret.html"))
        #expect(targets.contains("/robots.txt"))
        #expect(summary.counters.skipped["robots"] == 1)
        let entry = try rows(storage.path, "SELECT state, outcome, source FROM crawl_url WHERE url = ?", [secret])
        #expect(entry == [["state": "skipped", "outcome": "robots", "source": "activity"]])
        #expect(try rows(storage.path, "SELECT * FROM pending_url").isEmpty)
        #expect(try rows(storage.path, "SELECT * FROM page").isEmpty)
    }

    @Test("with seeds: the seeds' site and an out-of-scope pending page are both fetched, its links are not followed")
    func seedsAndPending() async throws {
        let seedSite = try await FixtureServer.start(site: "example")
        let otherSite = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        // `localhost` is another site than the seed's 127.0.0.1 (an IP address admits only itself).
        let port = try #require(URL(string: otherSite.baseURL)?.port)
        let pending = "http://localhost:\(port)/a.html"
        try addPending([pending], to: storage.path)
        let summary = try await crawl(testConfiguration(seeds: [seedSite.url("/")]), into: try storage.open())
        let seedTargets = await pageTargets(seedSite)
        let otherTargets = await pageTargets(otherSite)
        await seedSite.stop()
        await otherSite.stop()

        #expect(summary.finished)
        #expect(seedTargets.contains("/") && seedTargets.count >= 6)
        // a.html links to /, b.html and a.html?variant=1 on its own (out-of-scope) site: none followed.
        #expect(otherTargets == ["/a.html"])
        let stored = try rows(storage.path, "SELECT url, title FROM page WHERE url = ?", [pending])
        #expect(stored.count == 1 && stored.first?["title"] != nil)
        #expect(try rows(storage.path, "SELECT * FROM pending_url").isEmpty)
    }

    @Test("an in-scope pending page's links are followed")
    func inScopePending() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        try addPending([server.url("/a.html")], to: storage.path)
        // The seed page links nowhere: what else is fetched came through the pending page.
        await server.setBehaviour(.html("<title>Home</title>"), for: "/")
        _ = try await crawl(
            testConfiguration(seeds: [server.url("/")]) {
                $0.maxDepth = 1
                $0.excludePatterns = ["/sitemap*"]
            }, into: try storage.open())
        let targets = await pageTargets(server)
        await server.stop()
        #expect(Set(targets) == ["/", "/a.html", "/b.html", "/a.html?variant=1"])
        #expect(targets.count == 4)
    }
}
