import Crawler
import FixtureServer
import Foundation
import Store
import TestSupport
import Testing

@Suite("Re-crawling: conditional requests, unchanged content, gone and newly noindex pages")
struct CrawlRecrawlTests {
    @Test("a second crawl sends validators, re-extracts nothing unchanged, and still reaches every page")
    func conditional() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        let first = try await crawl(testConfiguration(seeds: [server.url("/")]), into: store)
        let firstPages = Set(await requestedTargets(server).filter { $0.hasSuffix(".html") || $0 == "/" })
        await server.resetStatistics()

        let second = try await crawl(testConfiguration(seeds: [server.url("/")]), into: store)
        let requests = await server.requests()
        #expect(first.run != second.run && !second.resumed)
        // The robots.txt copy is younger than 24 h: not fetched again.
        #expect(!requests.contains { $0.path == "/robots.txt" })
        let pageRequests = requests.filter { $0.path.hasSuffix(".html") || $0.path == "/" }
        // Redirect sources have no stored content, so they are asked plainly; every page with
        // content is asked conditionally and answered 304 by the fixture server.
        let withContent = pageRequests.filter { !["/old.html", "/loop-a.html", "/loop-b.html"].contains($0.path) }
        #expect(withContent.allSatisfy { $0.header("If-None-Match") != nil }, "\(withContent.map(\.path))")
        #expect(Set(pageRequests.map(\.path)) == firstPages)
        #expect(second.counters.pagesIndexed == 0)
        // Unchanged: every indexed page plus the noindex page (its content hash is kept too).
        #expect(second.counters.pagesUnchanged == first.counters.pagesIndexed + 1)
        await server.stop()
    }

    @Test("404, 410 and newly noindex pages leave the index on the next crawl")
    func gone() async throws {
        let server = try await startCrawlSite()
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        _ = try await crawl(testConfiguration(seeds: [server.url("/")]), into: store)
        await server.setBehaviour(.respond(status: 404), for: "/orphan.html")
        await server.setBehaviour(.respond(status: 410), for: "/text-orphan.html")
        await server.setBehaviour(
            .html("<title>Now private</title><meta name=robots content=noindex><p>gone from the index"),
            for: "/from-noindex.html")
        let second = try await crawl(testConfiguration(seeds: [server.url("/")]), into: store)
        await server.stop()
        let base = server.baseURL
        let pages = try rows(
            storage.path, "SELECT url, is_gone, is_indexable, item_json FROM page WHERE url IN (?, ?, ?)",
            ["\(base)/orphan.html", "\(base)/text-orphan.html", "\(base)/from-noindex.html"])
        let byURL = Dictionary(uniqueKeysWithValues: pages.compactMap { row in row["url"].map { ($0, row) } })
        #expect(byURL["\(base)/orphan.html"]?["is_gone"] == "1")
        #expect(byURL["\(base)/text-orphan.html"]?["is_gone"] == "1")
        #expect(byURL["\(base)/from-noindex.html"]?["is_indexable"] == "0")
        #expect(byURL.values.allSatisfy { $0["item_json"] == nil })
        #expect(second.counters.pagesGone == 2)
    }
}
