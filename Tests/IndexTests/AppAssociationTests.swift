import Bridge
import FixtureServer
import Foundation
import GRDB
import Index
import TestSupport
import Testing

/// SPEC §4 end to end: an app whose bundle the site's apple-app-site-association does not name can donate
/// as many activities with a `webpageURL` on the site as it likes (with made-up donors); none of it reaches
/// the site's item, its search terms or its engagement. The example app, which the site names, still merges.
@Suite("An app speaks only for sites that associate it")
struct AppAssociationTests {
    /// The crawled example site and a store holding `lines` (with `{{origin}}` the site's base URL), published.
    static func published(_ lines: [String]) async throws -> (TemporaryStore, String) {
        let store = try TemporaryStore()
        let server = try await FixtureServer.start(site: "example")
        let base = server.baseURL
        try await store.crawl(seeds: [base + "/"])
        await server.stop()
        let file = try donationFile(lines.map { $0.replacingOccurrences(of: "{{origin}}", with: base) }, in: store)
        _ = try await store.importFiles([file])
        _ = try await store.publish()
        return (store, base)
    }

    static func evil(_ donor: String, userInfo: Bool = false) -> String {
        var fields: [String: Any] = [
            "bundleIdentifier": "com.evil.app", "activityType": "com.evil.app.view", "title": "Win big now",
            "keywords": ["jackpot"], "webpageURL": "{{origin}}/",
            "contentAttributeSet": ["contentDescription": "Claim your jackpot"],
        ]
        if userInfo {
            fields["userInfo"] = ["offer": "1"]
            fields["requiredUserInfoKeys"] = ["offer"]
        }
        return activityLine(donor: donor, fields)
    }

    static func row(_ store: TemporaryStore, _ identifier: String) throws -> Row? {
        try store.readOnly { db in
            try Row.fetchOne(
                db, sql: "SELECT keywords, sources, engagement, item_json FROM public_item WHERE unique_identifier = ?",
                arguments: [identifier])
        }
    }

    static func search(_ store: TemporaryStore, _ word: String) throws -> [String] {
        try store.readOnly { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT p.unique_identifier FROM public_fts f JOIN public_item p ON p.id = f.rowid
                    WHERE public_fts MATCH ? ORDER BY 1
                    """, arguments: [word])
        }
    }

    @Test("an unassociated app's activities leave the site's item alone and are withheld as appNotAssociated")
    func unassociatedApp() async throws {
        let (store, base) = try await Self.published(["d-1", "d-2", "d-3", "d-4"].map { Self.evil($0) })
        defer { store.cleanUp() }
        let home = try #require(try Self.row(store, base + "/"))
        #expect(home["sources"] as String == "web")
        #expect(home["engagement"] as Int == 0)
        #expect(!(home["item_json"] as String).contains("jackpot"))
        #expect(try Self.search(store, "jackpot").isEmpty)
        let report = try #require(try await ReportReader(store: store.open()).report(clusterLimit: 100))
        let withheld = try #require(report.clusters.first { $0.reason == "appNotAssociated" })
        #expect(withheld.members.map(\.bundleIdentifier) == ["com.evil.app"])
        #expect(report.summary.withheld["appNotAssociated"] == 1)
    }

    @Test("with user info of its own, an unassociated app's activity is an app result apart from the page")
    func unassociatedAppResult() async throws {
        let (store, base) = try await Self.published(["d-1", "d-2", "d-3"].map { Self.evil($0, userInfo: true) })
        defer { store.cleanUp() }
        let home = try #require(try Self.row(store, base + "/"))
        #expect(home["sources"] as String == "web" && home["engagement"] as Int == 0)
        let hits = try Self.search(store, "jackpot")
        #expect(hits.count == 1 && hits.allSatisfy { $0.hasPrefix("app:com.evil.app:") })
        let result = try #require(try Self.row(store, hits[0]))
        // Not the site's address: the app's result opens in the app.
        #expect(!(result["item_json"] as String).contains("webpageURL"))
    }

    @Test("the app the site names still merges into the site's item")
    func associatedApp() async throws {
        let lines = ["d-1", "d-2", "d-3"].map {
            activityLine(donor: $0, ["title": "Home", "keywords": ["kitchen"], "webpageURL": "{{origin}}/about.html"])
        }
        let (store, base) = try await Self.published(lines)
        defer { store.cleanUp() }
        let about = try #require(try Self.row(store, base + "/about.html"))
        #expect(about["sources"] as String == "web,activity")
        #expect(about["engagement"] as Int == 3)
    }
}
