import FixtureServer
import Foundation
import TestSupport
import Testing

/// A small site built from fixture behaviours: a home page linking six pages, a sitemap listing them all
/// with a `lastmod`, and each page answering conditional requests (ETag and Last-Modified), so a
/// test can change a page and its `lastmod` while the server runs.
struct RefreshSite {
    let server: FixtureServer
    static let pages = (1...6).map { "/p\($0).html" }
    static let oldDate = "2020-01-01"

    static func start() async throws -> RefreshSite {
        let server = try await FixtureServer.start()
        let site = RefreshSite(server: server)
        await server.setBehaviour(
            .text("User-agent: *\nAllow: /\nSitemap: \(server.url("/sitemap.xml"))\n"), for: "/robots.txt")
        let links = pages.map { "<a href=\"\($0)\">\($0)</a>" }.joined(separator: " ")
        await site.setPage("/", title: "Refresh home", body: links, version: 1)
        for (index, path) in pages.enumerated() {
            await site.setPage(path, title: "Page \(index + 1) about apples", version: 1)
        }
        await site.setSitemap([:])
        return site
    }

    /// Serves `path` as an HTML page titled `title`, validators naming `version`.
    func setPage(_ path: String, title: String, body: String = "", version: Int) async {
        let html = "<!doctype html><title>\(title)</title><meta name=description content=\"\(title)\"><p>\(body)"
        await server.setBehaviour(
            .conditional(
                body: Array(html.utf8), etag: "\"\(path)-v\(version)\"",
                lastModified: "Mon, 0\(version) Jan 2024 00:00:00 GMT"),
            for: path)
    }

    /// The sitemap: every page (and `added`) with the old `lastmod`, but those in `lastModified`.
    func setSitemap(_ lastModified: [String: String], added: [String] = []) async {
        let entries = (["/"] + Self.pages + added).map { path in
            "<url><loc>\(server.url(path))</loc><lastmod>\(lastModified[path] ?? Self.oldDate)</lastmod></url>"
        }
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\(entries.joined())</urlset>\n"
        await server.setBehaviour(
            .respond(status: 200, headers: [("Content-Type", "application/xml")], body: Array(xml.utf8)),
            for: "/sitemap.xml")
    }

    /// The HTML pages requested since the last reset.
    func pageRequests() async -> Set<String> {
        Set(await server.requests().map(\.path).filter { $0 == "/" || $0.hasSuffix(".html") })
    }

    /// Now, as a sitemap `lastmod` with milliseconds: later than any fetch made before.
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date().addingTimeInterval(0.001))
    }
}

@Suite("crawl --refresh: only what is due, on either engine")
struct CrawlRefreshCommandTests {
    @Test(
        "a refresh right away fetches nothing; newer lastmods make it fetch exactly those pages; gone and noindex leave",
        arguments: StoreEngine.allCases)
    func refresh(engine: StoreEngine) async throws {
        let site = try await RefreshSite.start()
        let store = try await WorkersTestStore.make(engine)
        defer { store.cleanUp() }
        let common = ["--store", store.argument, "--allow-private-network", "--delay", "0"]
        let first = try await CommandRunner.run(["crawl", site.server.url("/")] + common)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(await site.pageRequests() == Set(["/"] + RefreshSite.pages))

        // Right away: robots.txt is cached and the sitemap's dates are old, so no page is due.
        await site.server.resetStatistics()
        let quiet = try await refresh(common)
        #expect(await site.pageRequests().isEmpty)
        #expect(await site.server.requests().map(\.path) == ["/sitemap.xml"])
        #expect(quiet.refresh == ["due": 0, "fetched": 0, "unchanged": 0, "changed": 0, "gone": 0])
        // The sitemap came back with the same bytes: not read again.
        #expect(quiet.counters["sitemapsUnchanged"] as? Int == 1 && quiet.counters["sitemapsRead"] as? Int == 0)

        // Two pages change, and the sitemap says so: exactly those two are fetched.
        await site.setPage("/p2.html", title: "Page 2 about quinces", version: 2)
        await site.setPage("/p5.html", title: "Page 5 about quinces", version: 2)
        let changedAt = RefreshSite.now()
        await site.setSitemap(["/p2.html": changedAt, "/p5.html": changedAt])
        await site.server.resetStatistics()
        let changed = try await refresh(common)
        #expect(await site.pageRequests() == ["/p2.html", "/p5.html"])
        #expect(changed.refresh == ["due": 2, "fetched": 2, "unchanged": 0, "changed": 2, "gone": 0])
        #expect(changed.counters["sitemapsRead"] as? Int == 1)
        // Of the sitemap's seven entries, only the two with a new date were handed on.
        let sitemapDetail = try await store.lines("SELECT detail FROM crawl_url WHERE kind = 'sitemap'")
        #expect(sitemapDetail.first?.contains("5 URLs as at the last read") == true, "\(sitemapDetail)")
        #expect(try await CommandRunner.run(["publish", "--store", store.argument]).status == 0)
        let found = try await CommandRunner.run(["search", "quinces", "--json", "--store", store.argument])
        #expect(try jsonObject(found.standardOutput)["total"] as? Int == 2)

        // Again right away: nothing is due, whatever the sitemap still says.
        await site.server.resetStatistics()
        _ = try await refresh(common)
        #expect(await site.pageRequests().isEmpty)

        // One page disappears, one becomes noindex: both leave the index at the next publish.
        await site.server.setBehaviour(.respond(status: 410), for: "/p3.html")
        await site.setPage("/p4.html", title: "Page 4 about apples <meta name=robots content=noindex>", version: 2)
        let goneAt = RefreshSite.now()
        await site.setSitemap(["/p2.html": changedAt, "/p5.html": changedAt, "/p3.html": goneAt, "/p4.html": goneAt])
        await site.server.resetStatistics()
        let gone = try await refresh(common)
        #expect(await site.pageRequests() == ["/p3.html", "/p4.html"])
        #expect(gone.refresh?["gone"] == 1 && gone.refresh?["fetched"] == 2)
        #expect(try await CommandRunner.run(["publish", "--store", store.argument]).status == 0)
        let apples = try await CommandRunner.run(["search", "apples", "--json", "--store", store.argument])
        let titles = try (jsonObject(apples.standardOutput)["results"] as? [[String: Any]] ?? []).compactMap {
            $0["title"] as? String
        }
        #expect(Set(titles) == ["Page 1 about apples", "Page 6 about apples"])

        // A URL new to the sitemap is found even with an old date, and fetched: it is new to the frontier.
        await site.setPage("/p7.html", title: "Page 7 about pears", version: 1)
        await site.setSitemap(
            ["/p2.html": changedAt, "/p5.html": changedAt, "/p3.html": goneAt, "/p4.html": goneAt], added: ["/p7.html"])
        await site.server.resetStatistics()
        _ = try await refresh(common)
        #expect(await site.pageRequests() == ["/p7.html"])
        await site.server.stop()
    }

    /// Runs `crawl --refresh --json` and returns its summary's `refresh` counts and its counters.
    func refresh(_ common: [String]) async throws -> (refresh: [String: Int]?, counters: [String: Any]) {
        let outcome = try await CommandRunner.run(["crawl", "--refresh", "--json"] + common)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let summary = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        return (summary["refresh"] as? [String: Int], summary["counters"] as? [String: Any] ?? [:])
    }
}
