import FixtureServer
import Foundation
import GRDB
import Index
import Store
import TestSupport

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
    var keywordText: String? { keywords.isEmpty ? nil : keywords.joined(separator: "\n") }
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
}

/// A SQLite store file and a PostgreSQL database (on the test process's shared cluster) holding the same
/// public items, each written as that engine's publisher writes them: the SQLite full-text tables through
/// their triggers and the gram rows; on PostgreSQL the rows alone (searches read a replica built from them).
struct PublicIndexStores {
    let folder: URL
    let sqlite: String
    let postgres: String

    init(_ items: [PublishedItem]) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        sqlite = folder.appendingPathComponent("store.sqlite").path
        _ = try SQLiteStore(path: sqlite)
        try Self.insert(items, path: sqlite)
        let cluster = try await PostgresCluster.shared()
        postgres = cluster.url(database: try await cluster.makeDatabase())
        guard case .postgres(let location) = try StoreLocation(parsing: postgres) else {
            throw StoreError(path: postgres, message: "not a PostgreSQL location")
        }
        let database = try await PostgresStore.open(location)
        do {
            for item in items { try await Self.insert(item, into: database) }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    func cleanUp() { try? FileManager.default.removeItem(at: folder) }

    private static func insert(_ items: [PublishedItem], path: String) throws {
        try DatabaseQueue(path: path).write { db in
            for item in items {
                try db.execute(
                    sql: """
                        INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
                        VALUES (?, ?, x'00', 1, 'published', '[]', '[]')
                        """, arguments: [item.id, "cluster-\(item.id)"])
                try db.execute(
                    sql: """
                        INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, title, description,
                            keywords, rating, engagement, boost, sources, last_seen, published_at, item_json, title_fold)
                        VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, 0, ?8, ?9, 0, 0, ?10, ?11)
                        """,
                    arguments: [
                        item.id, item.uniqueIdentifier, item.url, item.title, item.description, item.keywordText,
                        item.rating, item.boost, item.sources, item.json, SQLiteStore.foldedPrefix(item.title),
                    ])
                if let grams = GramText.row(
                    title: item.title, description: item.description, keywords: item.keywordText)
                {
                    try db.execute(
                        sql: "INSERT INTO public_grams (rowid, title, description, keywords) VALUES (?, ?, ?, ?)",
                        arguments: [item.id, grams.title, grams.description, grams.keywords])
                }
            }
        }
    }

    private static func insert(_ item: PublishedItem, into database: PostgresStore) async throws {
        _ = try await database.rows(
            """
            INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
            VALUES ($1, $2, '\\x00', TRUE, 'published', '[]', '[]')
            """, [.integer(item.id), .text("cluster-\(item.id)")])
        func text(_ value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .null }
        _ = try await database.rows(
            """
            INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, title, description, keywords,
                rating, engagement, boost, sources, last_seen, published_at, item_json, title_fold)
            VALUES ($1, $1, $2, $3, $4, $5, $6, $7, 0, $8, $9, 0, 0, $10, $11)
            """,
            [
                .integer(item.id), .text(item.uniqueIdentifier), text(item.url), .text(item.title),
                text(item.description), text(item.keywordText), item.rating.map(PostgresValue.double) ?? .null,
                .double(item.boost), .text(item.sources), .text(item.json), .text(SQLiteStore.foldedPrefix(item.title)),
            ])
    }
}
