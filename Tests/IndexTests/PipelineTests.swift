import Bridge
import Crawler
import Fetching
import FixtureServer
import Foundation
import GRDB
import Index
import TestSupport
import Testing

/// The whole pipeline on the bundled example site and donation file: crawl, import, publish (which
/// queues uncrawled activity pages), crawl the pending pages, publish again — then the exact public
/// index, its full-text search and the report.
@Suite struct PipelineTests {
    @Test func crawlImportPublishEndToEnd() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "example")
        defer { Task { await server.stop() } }
        await server.setBehaviour(.redirect(status: 301, location: "/recipes/lemon-tart.html"), for: "/old-tart.html")
        let base = server.baseURL
        try await store.crawl(seeds: [base + "/"], plainHTTPAppSiteAssociation: true)

        let example = try String(contentsOf: Fixtures.file("donations/example.jsonl"), encoding: .utf8)
            .replacingOccurrences(of: "{{origin}}", with: base)
        // Three more donors for the lemon tart under an old address that now redirects to it.
        let redirected = ["d-1", "d-2", "d-3"].map {
            activityLine(donor: $0, ["title": "Old tart link", "webpageURL": base + "/old-tart.html"])
        }
        // Three donors of an activity that has already expired: counted, never stored.
        let expired = ["e-1", "e-2", "e-3"].map {
            activityLine(
                donor: $0,
                [
                    "title": "Last year's menu", "webpageURL": base + "/about.html",
                    "expirationDate": "2020-01-01T00:00:00Z",
                ])
        }
        let lines = example.split(separator: "\n").map(String.init) + redirected + expired
        let file = try donationFile(lines, in: store)
        let imported = try await store.importFiles([file])
        #expect(imported.rejected == 1)  // the example's ftp:// line
        #expect(imported.withheld == ["notEligibleForPublicIndexing": 1, "expired": 3])

        let first = try await store.publish()
        #expect(first.withheld["awaitingCrawl"] == 2)  // secret.html and old-tart.html
        #expect(first.pendingURLs == 0)  // the import queued them already
        // The import queues every donated page the crawler has not fetched, also the rye loaf's public
        // address, which only the crawled copy's rel=canonical names (publishing knows it is public).
        let queued = try store.readOnly { db in try String.fetchAll(db, sql: "SELECT url FROM pending_url") }
        #expect(
            queued == [
                "\(base)/old-tart.html", "\(base)/recipes/secret.html",
                "https://recipes.example.com/recipes/rye-loaf.html",
            ])
        try await store.crawl(seeds: [], plainHTTPAppSiteAssociation: true)  // only the pending pages
        #expect(try store.count("SELECT count(*) FROM pending_url") == 0)
        let second = try await store.publish()

        let items = try store.readOnly { db in
            try Row.fetchAll(
                db, sql: "SELECT unique_identifier, title, sources, engagement FROM public_item ORDER BY 1")
        }
        let expected = [
            "app:com.example.recipes:com.example.recipes.list:list-7", "\(base)/", "\(base)/about.html",
            "\(base)/contact.html", "\(base)/recipes/",
            "\(base)/recipes/lemon-tart.html", "\(base)/recipes/rye-loaf.html",
        ]
        #expect(items.map { $0["unique_identifier"] as String } == expected)
        let tart = try #require(items.first { ($0["unique_identifier"] as String).hasSuffix("lemon-tart.html") })
        // Web markup first: the page's title, not the activity's.
        #expect((tart["title"] as String).hasPrefix("Lemon tart with a brown-butter crust"))
        #expect(tart["sources"] as String == "web,activity")
        #expect(tart["engagement"] as Int == 6)
        #expect(second.withheld["pageNotPublic"] == 1)  // secret.html answered 404
        #expect(second.withheld["belowEngagementThreshold"] == 1)
        #expect(second.withheld["notEligibleForPublicIndexing"] == 1)
        #expect(second.withheld["expired"] == 3)
        #expect(second.withheld["awaitingCrawl"] == nil)
        // The deleted draft left nothing behind, and no private record's text is anywhere.
        let dump = try store.dump()
        for text in ["pumpkin", "Private cooking notes", "My private diary", "private-session-token", "Last year"] {
            #expect(!dump.contains(text), "\(text) is stored")
        }

        let hits = try store.readOnly { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT p.unique_identifier FROM public_fts f JOIN public_item p ON p.id = f.rowid
                    WHERE public_fts MATCH 'tart' ORDER BY bm25(public_fts) LIMIT 1
                    """)
        }
        #expect(hits == ["\(base)/recipes/lemon-tart.html"])

        let report = try #require(try await ReportReader(store: store.open()).report(clusterLimit: 100))
        let cluster = try #require(report.clusters.first { $0.uniqueIdentifier == "\(base)/recipes/lemon-tart.html" })
        #expect(Set(cluster.matchedBy) == ["webpageURL", "redirect", "relatedUniqueIdentifier"])
        #expect(cluster.members.map(\.source).sorted() == ["activity", "activity", "searchableItem", "web"])
        let rye = try #require(report.clusters.first { $0.uniqueIdentifier == "\(base)/recipes/rye-loaf.html" })
        #expect(rye.matchedBy == ["canonical"])
        #expect(report.summary.published == 7)
        #expect(report.clusters.first?.published == false)  // withheld clusters are listed first
    }
}
