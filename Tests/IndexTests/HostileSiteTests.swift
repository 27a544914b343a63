import Crawler
import Fetching
import FixtureServer
import Foundation
import GRDB
import Index
import TestSupport
import Testing

/// The hostile fixture site (`Fixtures/sites/hostile`) crawled, published and exported: what reaches the
/// public index is the canonical form of every URL, a title from wherever the item took it, text without
/// control characters, and activity pages decided in one round (robots.txt included).
@Suite("A hostile site and hostile donations through crawl, import and publish", .timeLimit(.minutes(3)))
struct HostileSiteTests {
    @Test("Published web identifiers and URLs are canonical, whichever spelling was linked first")
    func canonicalIdentifiers() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        try await store.crawl(seeds: [server.baseURL + "/"])
        _ = try await store.publish()
        let identifiers = try store.readOnly { db in
            try Row.fetchAll(db, sql: "SELECT unique_identifier, webpage_url, item_json FROM public_item")
        }
        let tracked = try #require(identifiers.first { ($0["unique_identifier"] as String).contains("tracked") })
        #expect(tracked["unique_identifier"] as String == server.baseURL + "/tracked.html?b=1")
        #expect(tracked["webpage_url"] as String == server.baseURL + "/tracked.html?b=1")
        #expect(!(tracked["item_json"] as String).contains("utm_"))
        for row in identifiers {
            let identifier: String = row["unique_identifier"]
            #expect(!identifier.contains("#") && !identifier.contains("utm_"), "\(identifier)")
        }
    }

    @Test("An activity donated with tracking parameters before the crawl is fetched and published canonical")
    func donatedTrackingVariant() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        let lines = ["a", "b", "c"].map {
            activityLine(
                donor: $0,
                ["title": "Lighthouse", "webpageURL": server.baseURL + "/tracked.html?utm_campaign=x&b=1#top"])
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        try await store.crawl(seeds: [])
        _ = try await store.publish()
        let rows = try store.readOnly { db in
            try Row.fetchAll(db, sql: "SELECT unique_identifier, webpage_url, sources FROM public_item")
        }
        #expect(rows.map { $0["unique_identifier"] as String } == [server.baseURL + "/tracked.html?b=1"])
        #expect(rows.first?["sources"] as String? == "web,activity")
        let fetched = try store.readOnly { db in try String.fetchAll(db, sql: "SELECT url FROM fetch_log") }
        #expect(!fetched.contains { $0.contains("utm_") }, "\(fetched)")
    }

    @Test("A page titled only by og:title is published with that title")
    func openGraphTitleOnly() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        try await store.crawl(seeds: [server.baseURL + "/og-only.html"])
        let summary = try await store.publish()
        #expect(summary.published == 1)
        let title = try store.readOnly { db in try String.fetchOne(db, sql: "SELECT title FROM public_item") }
        #expect(title == "Harbour walks named only by Open Graph")
    }

    @Test("import, crawl, publish publishes an activity page in one round")
    func activityPageInOneRound() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        let lines = ["a", "b", "c"].map {
            activityLine(donor: $0, ["title": "Harbour walks", "webpageURL": server.baseURL + "/og-only.html"])
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        #expect(try store.count("SELECT count(*) FROM pending_url") == 1)
        try await store.crawl(seeds: [])
        let summary = try await store.publish()
        #expect(summary.published == 1)
        #expect(summary.withheld["awaitingCrawl"] == nil)
    }

    @Test("An activity page robots.txt disallows is withheld as robotsDisallowed, not left waiting")
    func robotsDisallowedActivityPage() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        let lines = ["a", "b", "c"].map {
            activityLine(donor: $0, ["title": "Hidden", "webpageURL": server.baseURL + "/private/hidden.html"])
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        _ = try await store.publish()
        try await store.crawl(seeds: [])
        let summary = try await store.publish()
        #expect(summary.withheld["robotsDisallowed"] == 1, "\(summary.withheld)")
        #expect(summary.withheld["awaitingCrawl"] == nil)
        #expect(try store.count("SELECT count(*) FROM pending_url") == 0)
        // Another crawl and publish change nothing: nothing waits.
        try await store.crawl(seeds: [])
        #expect(try await store.publish().withheld["robotsDisallowed"] == 1)
    }

    @Test("Control characters from pages and donations are not stored")
    func controlCharacters() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        try await store.crawl(seeds: [server.baseURL + "/controls.html"])
        let lines = ["a", "b", "c"].map {
            activityLine(
                donor: $0,
                [
                    "title": "Donated \u{1B}]0;owned\u{07} title", "persistentIdentifier": "p-1",
                    "requiredUserInfoKeys": ["id"], "userInfo": ["id": "1"],
                    "contentAttributeSet": ["contentDescription": "Line\u{1B}[2J\nbreak\u{9B}"],
                ])
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        _ = try await store.publish()
        let rows = try store.readOnly { db in
            try Row.fetchAll(db, sql: "SELECT title, description, keywords, item_json FROM public_item ORDER BY title")
        }
        #expect(rows.map { $0["title"] as String } == ["Clear[2J screen[31m red", "Donated ]0;owned title"])
        #expect(rows.last?["description"] as String? == "Line[2J break")
        let dump = try store.dump()
        for control in ["\u{1B}", "\u{07}", "\u{9B}"] {
            #expect(
                !dump.contains(control),
                "a control character U+\(String(control.unicodeScalars.first!.value, radix: 16)) is stored")
        }
    }

    @Test("A page stored with unsafe URLs before they were refused publishes none of them")
    func unsafeURLsInAnOlderStore() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        try await store.crawl(seeds: [server.baseURL + "/tracked.html"])
        // What a crawler before the URL rules stored for an unsafe page.
        let queue = try DatabaseQueue(path: store.path)
        try queue.inDatabase { db in
            try db.execute(
                sql: """
                    UPDATE page SET item_json = json_set(item_json,
                        '$.attributeSet.thumbnailURL', 'javascript:alert(1)',
                        '$.attributeSet.media', json('[{"kind":"video","url":"vbscript:x"}]'),
                        '$.deepLinks', json('[{"kind":"appLinks","appStoreID":"123","url":"JaVaScRiPt:alert(2)"}]'),
                        '$.searchAction', 'data:text/html,x')
                    """)
        }
        try queue.close()
        _ = try await store.publish()
        let json = try #require(
            try store.readOnly { db in try String.fetchOne(db, sql: "SELECT item_json FROM public_item") })
        for scheme in ["javascript", "vbscript", "data:"] {
            #expect(!json.lowercased().contains(scheme), "\(json)")
        }
        #expect(json.contains("\"appStoreID\":\"123\""))
    }

    @Test("Report members without a persistentIdentifier each keep an identifier of their own")
    func distinctMemberIdentifiers() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let lines = ["a", "b", "c"].flatMap { donor in
            ["1", "2"].map { id in
                activityLine(
                    donor: donor, ["title": "Item \(id)", "requiredUserInfoKeys": ["id"], "userInfo": ["id": id]])
            }
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        _ = try await store.publish()
        let report = try #require(try await ReportReader(store: store.open()).report(clusterLimit: 10))
        let identifiers = report.clusters.flatMap(\.members).map(\.id)
        #expect(identifiers.count == 2)
        #expect(Set(identifiers).count == 2, "\(identifiers)")
    }
}
