import Crawler
import FixtureServer
import Foundation
import Store
import TestSupport
import Testing

@Suite("Crawling the fixture site, checked against the server's request log")
struct CrawlSiteTests {
    /// Every request a full crawl of `Fixtures/sites/crawl` must make: the reachable in-scope
    /// URLs (links, redirects, sitemaps), robots.txt and the app-site-association file.
    static let expectedTargets: Set<String> = [
        "/robots.txt", "/.well-known/apple-app-site-association", "/sitemap.xml",
        "/sitemaps/index.xml", "/sitemaps/pages.xml", "/sitemaps/more.txt",
        "/", "/a.html", "/a.html?variant=1", "/b.html", "/private/open.html", "/noindex.html", "/from-noindex.html",
        "/meta-nofollow.html", "/deep/1.html", "/deep/2.html", "/deep/3.html", "/deep/4.html", "/old.html",
        "/new.html", "/loop-a.html", "/loop-b.html", "/orphan.html", "/text-orphan.html", "/file.pdf",
    ]

    @Test("finds every reachable in-scope URL, requests each once, and nothing disallowed or out of scope")
    func fullCrawl() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let summary = try await crawl(testConfiguration(seeds: [server.url("/")]), into: try storage.open())
        let targets = await requestedTargets(server)
        await server.stop()

        #expect(summary.finished)
        #expect(Set(targets) == Self.expectedTargets)
        let repeated = Dictionary(grouping: targets, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "requested more than once: \(repeated)")
        for never in ["/private/secret.html", "/nofollow-only.html", "/hidden-by-meta.html"] {
            #expect(!targets.contains(never), "\(never) must not be requested")
        }
        // Nothing outside the seed's host was even attempted.
        let logged = try rows(storage.path, "SELECT url FROM fetch_log").compactMap { $0["url"] }
        #expect(!logged.isEmpty && logged.allSatisfy { $0.hasPrefix(server.baseURL) })

        #expect(summary.counters.skipped["robots"] == 1)  // private/secret.html, listed in pages.xml
        #expect(summary.counters.skipped["noindex"] == 1)
        #expect((summary.counters.skipped["scope"] ?? 0) >= 2)  // elsewhere.example.org (link and sitemap), mailto…
        #expect(summary.counters.skipped["type"] == 1)  // file.pdf
        #expect(summary.counters.redirects == 3)  // old, loop-a, loop-b
        #expect(summary.counters.sitemapsRead == 3)
    }

    @Test("stores items, noindex, canonical, redirects and universal links")
    func storedPages() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        _ = try await crawl(testConfiguration(seeds: [server.url("/")]), into: try storage.open())
        await server.stop()
        let base = server.baseURL

        let pages = try rows(storage.path, "SELECT * FROM page")
        let byURL = Dictionary(uniqueKeysWithValues: pages.compactMap { row in row["url"].map { ($0, row) } })
        #expect(byURL["\(base)/noindex.html"]?["is_indexable"] == "0")
        #expect(byURL["\(base)/noindex.html"]?["item_json"] == nil)
        #expect(byURL["\(base)/from-noindex.html"]?["is_indexable"] == "1")
        #expect(byURL["\(base)/meta-nofollow.html"]?["is_indexable"] == "1")
        #expect(byURL["\(base)/b.html"]?["canonical_url"] == "\(base)/a.html")
        let aItem = try #require(byURL["\(base)/a.html"]?["item_json"])
        #expect(aItem.contains(#""kind":"universalLink""#) && aItem.contains("ABCDE12345.org.example.crawl"))
        let bItem = try #require(byURL["\(base)/b.html"]?["item_json"])
        #expect(!bItem.contains("universalLink"))
        #expect(byURL["\(base)/private/open.html"]?["item_json"]?.contains("universalLink") == false)

        let redirects = try rows(storage.path, "SELECT from_url, to_url FROM redirect ORDER BY from_url")
        #expect(redirects.contains { $0["from_url"] == "\(base)/old.html" && $0["to_url"] == "\(base)/new.html" })
        #expect(redirects.count == 3)
        #expect(try storage.open().integrityCheck() == ["ok"])
    }

    @Test("--max-depth and --max-pages bound the crawl")
    func limits() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let shallow = try await crawl(
            testConfiguration(seeds: [server.url("/")]) { $0.maxDepth = 1 }, into: try storage.open())
        let targets = await requestedTargets(server)
        #expect(targets.contains("/deep/1.html"))
        #expect(!targets.contains("/deep/2.html") && !targets.contains("/from-noindex.html"))
        #expect((shallow.counters.skipped["depth"] ?? 0) >= 1)

        await server.resetStatistics()
        let other = try TemporaryStore()
        defer { other.cleanUp() }
        let limited = try await crawl(
            testConfiguration(seeds: [server.url("/")]) { $0.maxPages = 5 }, into: try other.open())
        let pageRequests = await requestedTargets(server).filter {
            !$0.hasPrefix("/sitemap") && $0 != "/robots.txt" && !$0.hasPrefix("/.well-known")
        }
        await server.stop()
        #expect(limited.counters.pagesFetched == 5)
        #expect(pageRequests.count == 5)
        #expect(limited.queued > 0)
    }

    @Test("include and exclude patterns")
    func patterns() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        _ = try await crawl(
            testConfiguration(seeds: [server.url("/")]) { $0.excludePatterns = ["/deep/*", "*variant*"] },
            into: try storage.open())
        let targets = await requestedTargets(server)
        await server.stop()
        #expect(!targets.contains { $0.hasPrefix("/deep/") || $0.contains("variant") })
        #expect(targets.contains("/a.html"))
    }
}
