import Crawler
import FixtureServer
import Foundation
import GRDB
import Synchronization
import TestSupport
import Testing

@testable import Store

/// A clock a test moves by hand: the time refresh passes start from and visits are scheduled from.
final class TestClock: Sendable {
    private let time: Mutex<Double>

    init(_ start: Double) { time = Mutex(start) }

    func now() -> Double { time.withLock { $0 } }

    func set(_ value: Double) { time.withLock { $0 = value } }
}

@Suite("Revisit scheduling over refresh passes, with a test's clock")
struct CrawlRefreshTests {
    static let day = 86_400.0

    /// Serves `path` as a page with `title`, answering conditional requests for `version`.
    static func setPage(_ server: FixtureServer, _ path: String, title: String, links: String = "", version: Int) async
    {
        let html = "<!doctype html><title>\(title)</title><p>\(links)"
        await server.setBehaviour(
            .conditional(
                body: Array(html.utf8), etag: "\"\(path)-\(version)\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"),
            for: path)
    }

    /// Each page's revisit interval and next visit, by path.
    static func schedule(_ storePath: String, base: String) throws -> [String: (interval: Double, next: Double)] {
        var result: [String: (interval: Double, next: Double)] = [:]
        for row in try rows(storePath, "SELECT url, revisit_interval, next_visit_at FROM crawl_url WHERE kind = 'page'")
        {
            guard let url = row["url"], let interval = row["revisit_interval"].flatMap(Double.init),
                let next = row["next_visit_at"].flatMap(Double.init)
            else { continue }
            result[String(url.dropFirst(base.count))] = (interval, next)
        }
        return result
    }

    @Test("an unchanged page's interval doubles at each visit, a changed page's halves")
    func intervals() async throws {
        let server = try await FixtureServer.start()
        await Self.setPage(
            server, "/", title: "Home", links: "<a href=/same.html>same</a> <a href=/moving.html>moving</a>", version: 1
        )
        await Self.setPage(server, "/same.html", title: "Always the same", version: 1)
        await Self.setPage(server, "/moving.html", title: "Version 1", version: 1)
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        let clock = TestClock(Date().timeIntervalSince1970)
        let policy = RevisitPolicy(now: { clock.now() })
        _ = try await crawl(testConfiguration(seeds: [server.url("/")]) { $0.revisit = policy }, into: store)
        var last = try Self.schedule(storage.path, base: server.baseURL)
        #expect(last["/same.html"]?.interval == Self.day && last["/moving.html"]?.interval == Self.day)

        for version in 2...4 {
            await Self.setPage(server, "/moving.html", title: "Version \(version)", version: version)
            // Both pages are due: the clock is past both next visits.
            clock.set(max(last["/same.html"]?.next ?? 0, last["/moving.html"]?.next ?? 0) + 1)
            await server.resetStatistics()
            let summary = try await crawl(
                testConfiguration(seeds: []) {
                    $0.revisit = policy
                    $0.refresh = true
                }, into: store)
            let requested = Set(await requestedTargets(server))
            #expect(requested.isSuperset(of: ["/same.html", "/moving.html"]))
            #expect(summary.refresh?.changed == 1 && (summary.refresh?.unchanged ?? 0) >= 1)
            let now = try Self.schedule(storage.path, base: server.baseURL)
            let same = try #require(now["/same.html"]), moving = try #require(now["/moving.html"])
            #expect(same.interval == (last["/same.html"]?.interval ?? 0) * 2)
            #expect(moving.interval == max(3600, (last["/moving.html"]?.interval ?? 0) / 2))
            #expect(same.next == clock.now() + same.interval && moving.next == clock.now() + moving.interval)
            last = now
        }
        await server.stop()
    }

    @Test("a page an activity donates afresh is verified by the next refresh even when not due")
    func donatedAgain() async throws {
        let server = try await FixtureServer.start()
        await Self.setPage(server, "/", title: "Home", links: "<a href=/recipe.html>recipe</a>", version: 1)
        await Self.setPage(server, "/recipe.html", title: "A recipe", version: 1)
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        _ = try await crawl(testConfiguration(seeds: [server.url("/")]), into: store)
        try addPending([server.url("/recipe.html")], to: storage.path)
        await server.resetStatistics()
        let summary = try await crawl(testConfiguration(seeds: []) { $0.refresh = true }, into: store)
        let pages = await requestedTargets(server).filter { $0.hasSuffix(".html") || $0 == "/" }
        #expect(pages == ["/recipe.html"])
        #expect(summary.refresh?.due == 1)
        #expect(try rows(storage.path, "SELECT * FROM pending_url").isEmpty)
        await server.stop()
    }

    @Test(
        "a refresh under a wider scope reads the sitemaps whole again and finds what the crawl before left out; a refused page is not due for its old date"
    )
    func scopeChange() async throws {
        let server = try await FixtureServer.start()
        await server.setBehaviour(
            .text("User-agent: *\nDisallow: /private.html\nSitemap: \(server.url("/sitemap.xml"))\n"),
            for: "/robots.txt")
        // A page robots.txt refuses, listed with a date: refused once, it is not due again for that date.
        let entries = ["/", "/p1.html", "/p2.html", "/private.html"].map {
            "<url><loc>\(server.url($0))</loc><lastmod>2020-01-01</lastmod></url>"
        }
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\(entries.joined())</urlset>"
        await server.setBehaviour(
            .conditional(
                body: Array(xml.utf8), etag: "\"sitemap-1\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT",
                contentType: "application/xml"),
            for: "/sitemap.xml")
        await Self.setPage(server, "/", title: "Home", version: 1)
        await Self.setPage(server, "/p1.html", title: "One", version: 1)
        await Self.setPage(server, "/p2.html", title: "Two", version: 1)
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        _ = try await crawl(testConfiguration(seeds: [server.url("/")]) { $0.excludePatterns = ["/p2*"] }, into: store)
        #expect(!(await requestedTargets(server).contains("/p2.html")))
        // The same scope: the sitemap answers 304 and nothing is due.
        await server.resetStatistics()
        let same = try await crawl(
            testConfiguration(seeds: []) {
                $0.refresh = true
                $0.excludePatterns = ["/p2*"]
            }, into: store)
        #expect(await pageTargets(server) == ["/sitemap.xml"])
        #expect(same.counters.sitemapsUnchanged == 1)
        #expect(same.refresh?.due == 0 && same.counters.skipped["robots"] == nil)
        // Without the pattern: the sitemap is read again, and only the page left out is new.
        await server.resetStatistics()
        let wider = try await crawl(testConfiguration(seeds: []) { $0.refresh = true }, into: store)
        #expect(await requestedTargets(server).filter { $0.hasSuffix(".html") || $0 == "/" } == ["/p2.html"])
        #expect(wider.counters.sitemapsRead == 1 && wider.refresh?.due == 0)
        await server.stop()
    }

    @Test("a sitemap a site adds after the first crawl is read once its guessed address is due again")
    func sitemapAddedLater() async throws {
        let server = try await FixtureServer.start()
        await Self.setPage(server, "/", title: "Home", version: 1)
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        let clock = TestClock(Date().timeIntervalSince1970)
        let policy = RevisitPolicy(now: { clock.now() })
        _ = try await crawl(testConfiguration(seeds: [server.url("/")]) { $0.revisit = policy }, into: store)
        #expect(await pageTargets(server).contains("/sitemap.xml"))  // guessed, 404
        let xml =
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>\(server.url("/hidden.html"))"
            + "</loc></url></urlset>"
        await server.setBehaviour(
            .respond(status: 200, headers: [("Content-Type", "application/xml")], body: Array(xml.utf8)),
            for: "/sitemap.xml")
        await Self.setPage(server, "/hidden.html", title: "Only in the sitemap", version: 1)
        let refresh = testConfiguration(seeds: []) {
            $0.revisit = policy
            $0.refresh = true
        }
        // Right away, the missing sitemap is not asked again.
        await server.resetStatistics()
        _ = try await crawl(refresh, into: store)
        #expect(await pageTargets(server).isEmpty)
        // A day later its next visit has come; the home page's is put far off, so nothing else brings the
        // host (and the guessed sitemap with its robots.txt) back: the new sitemap is read.
        let queue = try DatabaseQueue(path: storage.path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE crawl_url SET next_visit_at = next_visit_at + 8640000 WHERE kind = 'page'")
        }
        try queue.close()
        clock.set(clock.now() + Self.day + 1)
        await server.resetStatistics()
        _ = try await crawl(refresh, into: store)
        let requested = await pageTargets(server)
        #expect(requested.contains("/sitemap.xml") && requested.contains("/hidden.html"), "\(requested)")
        await server.stop()
    }

    @Test("an activity-only page is revisited before its published item would expire, however long it was unchanged")
    func activityPage() async throws {
        let server = try await FixtureServer.start()
        await Self.setPage(server, "/activity.html", title: "Donated page", version: 1)
        await associate(server)
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        try addPending([server.url("/activity.html")], to: storage.path)
        let store = try storage.open()
        let clock = TestClock(Date().timeIntervalSince1970)
        let lifetime = 30 * Self.day
        let policy = RevisitPolicy(itemLifetime: lifetime, now: { clock.now() })
        let configuration = testConfiguration(seeds: []) {
            $0.revisit = policy
            $0.refresh = true
        }
        _ = try await crawl(configuration, into: store)
        #expect(await requestedTargets(server).contains("/activity.html"))
        var visitedAt = clock.now()
        for _ in 0..<8 {
            let next = try #require(try Self.schedule(storage.path, base: server.baseURL)["/activity.html"]?.next)
            // Never later than nine tenths of the item's lifetime after the last visit.
            #expect(next - visitedAt <= lifetime * 0.9 + 0.001)
            await server.resetStatistics()
            clock.set(next - 60)
            let early = try await crawl(configuration, into: store)
            #expect(!(await requestedTargets(server).contains("/activity.html")))
            #expect(early.refresh?.due == 0)
            clock.set(next + 1)
            let due = try await crawl(configuration, into: store)
            #expect(await requestedTargets(server).contains("/activity.html"))
            #expect(due.refresh?.due == 1 && due.refresh?.unchanged == 1)
            visitedAt = clock.now()
        }
        let final = try #require(try Self.schedule(storage.path, base: server.baseURL)["/activity.html"])
        #expect(final.interval == lifetime, "the interval grew to --max-revisit, the visits stayed within the lifetime")
        await server.stop()
    }
}
