import FixtureServer
import Foundation
import GRDB
import Index
import TestSupport

@testable import Store

/// A public item as the publisher writes it, for stores that `search` and `export` read.
struct PublishedItem {
    var id: Int64
    var title: String
    var description: String? = nil
    var keywords: [String] = []
    var url: String? = nil
    var boost = 0.0
    var sources = "web"
    var rating: Double? = nil
    var uniqueIdentifier: String { url ?? "item-\(id)" }
    /// The item's JSON as stored (and exported): deliberately not in the store's key order, with a line break
    /// that export must drop.
    var json: String {
        let fields = try? JSONSerialization.data(
            withJSONObject: ["title": title, "contentDescription": description as Any? ?? NSNull()],
            options: [.sortedKeys])
        return #"{"uniqueIdentifier":"\#(uniqueIdentifier)","#
            + "\r\n"
            + #" "attributeSet":\#(String(decoding: fields ?? Data(), as: UTF8.self))}"#
    }

    /// The item as the stores are given it.
    var testItem: TestItem {
        TestItem(
            id: id, title: title, description: description, keywords: keywords, url: url, rating: rating, boost: boost,
            sources: sources, lastSeen: 0, storedJSON: json)
    }
}

/// A SQLite store file and a PostgreSQL database (on the test process's shared cluster) holding the same
/// public items, each written through that engine's publish transaction (``TestItem``): on SQLite with the
/// full-text and gram rows; on PostgreSQL the rows alone (searches read a replica built from them).
struct PublicIndexStores {
    let folder: URL
    let sqlite: String
    let postgres: String

    init(_ items: [PublishedItem]) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        sqlite = folder.appendingPathComponent("store.sqlite").path
        let written = items.map(\.testItem)
        try await TestItem.publish(written, into: try SQLiteStore(path: sqlite))
        let cluster = try await PostgresCluster.shared()
        let name = try await cluster.makeDatabase(.migrated)
        postgres = cluster.url(database: name)
        let database = try await PostgresStore.open(try cluster.location(database: name))
        do {
            try await TestItem.publish(written, into: database)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder) }
}
