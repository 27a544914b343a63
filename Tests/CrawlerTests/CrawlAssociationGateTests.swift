import Crawler
import FixtureServer
import Foundation
import Store
import TestSupport
import Testing

/// SPEC §4: a donated page on a host outside every crawl's scope is fetched only after that host's
/// apple-app-site-association names the donating app, so no app can point the crawler at a site it does
/// not belong to. Sites a crawl was asked to visit (the seeds of any pass) are crawled as ever.
@Suite("Donated pages off the crawled sites wait for their host's association")
struct CrawlAssociationGateTests {
    static let path = "/.well-known/apple-app-site-association"

    /// A host that serves `/donated.html` and, when `apps` is given, an association file naming them.
    static func donatedHost(naming apps: [String]?) async throws -> FixtureServer {
        let server = try await FixtureServer.start()
        await server.setBehaviour(.html("<title>Donated</title>"), for: "/donated.html")
        if let apps {
            let list = apps.map { "\"ABCDE12345.\($0)\"" }.joined(separator: ",")
            await server.setBehaviour(
                .respond(
                    status: 200, headers: [("Content-Type", "application/json")],
                    body: Array(#"{"activitycontinuation":{"apps":[\#(list)]}}"#.utf8)),
                for: path)
        }
        return server
    }

    /// The outcome of the frontier entry of `url`.
    static func outcome(of url: String, in storage: TemporaryStore) throws -> [String: String]? {
        try rows(storage.path, "SELECT state, outcome, detail FROM crawl_url WHERE url = ?", [url]).first
    }

    /// Crawls, with no seeds, the donated page of a host whose association file names `apps` (none served for
    /// `nil`): the requests the host saw, the page's frontier entry and the pass's summary.
    static func crawlDonated(naming apps: [String]?) async throws -> (
        targets: [String], entry: [String: String]?, summary: CrawlSummary
    ) {
        let server = try await Self.donatedHost(naming: apps)
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        try addPending([server.url("/donated.html")], to: storage.path)
        let summary = try await crawl(testConfiguration(seeds: []), into: try storage.open())
        let targets = await requestedTargets(server)
        await server.stop()
        #expect(try rows(storage.path, "SELECT * FROM pending_url").isEmpty)
        return (targets, try Self.outcome(of: server.url("/donated.html"), in: storage), summary)
    }

    @Test("a host that names no app in its association file gets no request but that file's")
    func noAppNamed() async throws {
        let (targets, entry, summary) = try await Self.crawlDonated(naming: nil)
        #expect(targets == [Self.path])
        #expect(summary.counters.skipped["app-not-associated"] == 1)
        #expect(entry?["outcome"] == "app-not-associated")
    }

    @Test("a host that names other apps: robots.txt is read, the donated page is not fetched")
    func otherAppNamed() async throws {
        let (targets, entry, _) = try await Self.crawlDonated(naming: ["com.example.other"])
        #expect(!targets.contains("/donated.html") && targets.contains("/robots.txt"))
        #expect(entry?["outcome"] == "app-not-associated")
        #expect(entry?["detail"]?.contains("org.example.crawl") == true)
    }

    @Test("a host that names the donating app in any service: the donated page is fetched")
    func donorNamed() async throws {
        let (targets, entry, _) = try await Self.crawlDonated(naming: ["com.example.other", "org.example.crawl"])
        #expect(targets.contains("/donated.html"))
        #expect(entry?["outcome"] == "indexed")
    }

    @Test("a site an earlier pass was seeded with is crawled without asking its association file")
    func siteOfAnEarlierPass() async throws {
        let server = try await Self.donatedHost(naming: nil)
        await server.setBehaviour(.html("<title>Home</title>"), for: "/")
        let storage = try TemporaryStore()
        defer { storage.cleanUp() }
        let store = try storage.open()
        _ = try await crawl(testConfiguration(seeds: [server.url("/")]), into: store)
        try addPending([server.url("/donated.html")], to: storage.path)
        await server.resetStatistics()
        _ = try await crawl(testConfiguration(seeds: []), into: store)
        let targets = await requestedTargets(server)
        await server.stop()
        #expect(targets.contains("/donated.html"))
    }
}
