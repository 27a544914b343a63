import FixtureServer
import Foundation
import GRDB
import Index
import Items
import Logging
import Synchronization
import TestSupport
import Testing

@testable import Store

/// What a publish logged, kept for the test to read.
final class LogRecorder: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
    }

    private let storage = Mutex<[Line]>([])

    var lines: [Line] { storage.withLock { $0 } }

    var logger: Logger {
        var logger = Logger(label: "test.publish") { _ in Handler(recorder: self) }
        logger.logLevel = .debug
        return logger
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let metadata = (event.metadata ?? [:]).mapValues(\.description)
            recorder.storage.withLock {
                $0.append(Line(level: event.level, message: event.message.description, metadata: metadata))
            }
        }
    }
}

/// A way a page's stored item can fail to be an item, as SQL over the stored text.
struct StoredItemDamage: Sendable, CustomTestStringConvertible {
    let name: String
    let sql: String
    /// The start of the reason the log gives.
    let reason: String
    var testDescription: String { name }
}

/// Publishing reads a page's stored item with the item codec: strictly, and never to a crash.
@Suite("Publishing decodes a page's stored item with the item codec", .timeLimit(.minutes(3)))
struct StoredItemTests {
    static let damages = [
        StoredItemDamage(
            name: "a trailing comma (the JSON-LD reader used to forgive it)",
            sql: "substr(item_json, 1, length(item_json) - 1) || ',}'", reason: "not JSON at byte"),
        StoredItemDamage(
            name: "a title that is a number (the JSON-LD reader used to publish it as text)",
            sql: "json_set(item_json, '$.attributeSet.title', 42)",
            reason: "attributeSet.title: expected a string, found a number"),
        StoredItemDamage(name: "text cut short", sql: "substr(item_json, 1, 40)", reason: "not JSON at byte 40"),
        StoredItemDamage(
            name: "no attribute set", sql: "json_remove(item_json, '$.attributeSet')",
            reason: "attributeSet: missing"),
    ]

    /// Crawls the hostile site's tracked page and damages its stored item; returns the page URL.
    static func crawlDamaged(_ sql: String, store: TemporaryStore, server: FixtureServer) async throws -> String {
        let url = server.baseURL + "/tracked.html"
        try await store.crawl(seeds: [url])
        let queue = try DatabaseQueue(path: store.path)
        try queue.inDatabase { db in
            try db.execute(sql: "UPDATE page SET item_json = \(sql) WHERE url = ?", arguments: [url])
        }
        try queue.close()
        return url
    }

    @Test("A page whose stored item is not an item publishes as if it had none, counted and logged", arguments: damages)
    func unreadableItem(_ damage: StoredItemDamage) async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        let url = try await Self.crawlDamaged(damage.sql, store: store, server: server)
        let recorder = LogRecorder()
        let summary = try await Publisher(store: store.open(), logger: recorder.logger).publish()
        #expect(summary.unreadablePageItems == 1)
        #expect(summary.withheld["noTitle"] == 1, "\(summary.withheld)")
        #expect(try store.count("SELECT count(*) FROM public_item") == 0)
        let warning = try #require(recorder.lines.first { $0.level == .warning })
        #expect(warning.metadata["url"] == url)
        #expect(warning.metadata["reason"]?.hasPrefix(damage.reason) == true, "\(warning.metadata)")
        // Nothing changed, nothing rebuilt: the next publish reads no item and counts none.
        #expect(try await store.publish().unreadablePageItems == nil)
    }

    @Test("With its stored item unreadable, a page's cluster still publishes the activities' fields")
    func activitiesStillPublish() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "hostile")
        defer { Task { await server.stop() } }
        let url = try await Self.crawlDamaged("'{\"uniqueIdentifier\":'", store: store, server: server)
        let lines = ["a", "b", "c"].map {
            activityLine(donor: $0, ["title": "Donated tour", "webpageURL": url, "keywords": ["lighthouse"]])
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        let summary = try await store.publish()
        #expect(summary.unreadablePageItems == 1)
        let row = try #require(
            try store.readOnly { db in try Row.fetchOne(db, sql: "SELECT title, sources FROM public_item") })
        #expect(row["title"] as String == "Donated tour")
        #expect(row["sources"] as String == "web,activity")
        let item = try SearchableItem(jsonText: try #require(try store.publishedJSON().first))
        #expect(item.uniqueIdentifier == url && item.webpageURL == url)
        #expect(item.attributeSet.keywords == ["lighthouse"] && item.attributeSet.contentDescription == nil)
    }

    @Test("Activities fill the page's gaps, and the item keeps SPEC §6's key order")
    func filledInOrder() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "example")
        defer { Task { await server.stop() } }
        let home = server.baseURL + "/"
        try await store.crawl(seeds: [home], plainHTTPAppSiteAssociation: true)
        let lines = ["a", "b", "c"].map {
            activityLine(
                donor: $0,
                [
                    "title": "Donated home", "webpageURL": home, "keywords": ["baking"],
                    "contentAttributeSet": [
                        "thumbnailURL": "https://img.example/other.jpg", "domainIdentifier": "home",
                    ],
                ])
        }
        _ = try await store.importFiles([try donationFile(lines, in: store)])
        _ = try await store.publish()
        let json = try #require(try store.publishedJSON(where: "unique_identifier = ?", arguments: [home]).first)
        let item = try SearchableItem(jsonText: json)
        // The page's markup wins where it has a field; the activity fills only what it lacks.
        #expect(item.attributeSet.title?.hasPrefix("Example Recipes") == true)
        #expect(item.attributeSet.thumbnailURL == "https://recipes.example.com/images/lemon-tart-wide.jpg")
        #expect(item.attributeSet.keywords == ["baking"] && item.attributeSet.domainIdentifier == "home")
        #expect(json == item.jsonText)
        let keys = ["\"title\"", "\"contentDescription\"", "\"keywords\"", "\"thumbnailURL\"", "\"domainIdentifier\""]
        let positions = keys.map { json.range(of: $0)?.lowerBound }
        #expect(
            positions.allSatisfy { $0 != nil } && positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test("Every published item reads back through the codec, byte for byte")
    func publishedItemsReadBack() async throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        let server = try await FixtureServer.start(site: "example")
        defer { Task { await server.stop() } }
        let base = server.baseURL
        try await store.crawl(seeds: [base + "/"], plainHTTPAppSiteAssociation: true)
        let example = try String(contentsOf: Fixtures.file("donations/example.jsonl"), encoding: .utf8)
            .replacingOccurrences(of: "{{origin}}", with: base)
        _ = try await store.importFiles([try donationFile(example.split(separator: "\n").map(String.init), in: store)])
        _ = try await store.publish()
        let texts = try store.publishedJSON()
        #expect(texts.count >= 6)
        for text in texts {
            #expect(try SearchableItem(jsonText: text).jsonText == text)
        }
        // An item stored in the full form by an earlier version reads back as it was, by look-up and by export.
        let opened = try store.open()
        let index = opened as any PublicIndexStore
        let source = SearchSource.store(opened)
        let exported = try await Self.export(index)
        #expect(exported == texts)
        let identifiers = try texts.map { try SearchableItem(jsonText: $0).uniqueIdentifier }
        let lookedUp = try await source.publicItems(uniqueIdentifiers: identifiers)
        try await DatabaseQueue(path: store.path).write { db in
            for (identifier, text) in zip(identifiers, texts) {
                try db.execute(
                    sql: "UPDATE public_item SET item_json = ? WHERE unique_identifier = ?",
                    arguments: [text, identifier])
            }
        }
        #expect(try await Self.export(index) == texts)
        #expect(try await source.publicItems(uniqueIdentifiers: identifiers) == lookedUp)
        #expect(lookedUp.count == texts.count && Set(lookedUp.values) == Set(texts))
    }

    /// The items `PublicExport` writes, one text per line.
    private static func export(_ index: any PublicIndexStore) async throws -> [String] {
        let collected = PublicExportTests.Collected()
        try await PublicExport(index: index).writeJSONLines { collected.data.append($0) }
        return String(decoding: collected.data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
