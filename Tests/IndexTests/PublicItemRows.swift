import Foundation
import GRDB

/// A public item row for tests, inserted directly (with its cluster) as the publisher would.
struct PublicItemRow {
    var id: Int64
    var title: String
    var description: String? = nil
    var keywords: [String] = []
    var url: String? = nil
    var bundle: String? = nil
    var domain: String? = nil
    var rating: Double? = nil
    var ratingCount: Int? = nil
    var engagement = 0
    var boost = 0.0
    var sources = "web"
    var expiresAt: Double? = nil
    var lastSeen = 1_767_225_600.0
    var uniqueIdentifier: String { url ?? "item-\(id)" }
    var json: String {
        "{\"uniqueIdentifier\":\"\(uniqueIdentifier)\",\"attributeSet\":{\"title\":\"\(title)\"}}"
    }

    /// Inserts `rows` into the store at `path` (already migrated).
    static func insert(_ rows: [PublicItemRow], path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for row in rows {
                try db.execute(
                    sql: """
                        INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
                        VALUES (?, ?, x'00', 1, 'published', '[]', '[]')
                        """,
                    arguments: [row.id, "cluster-\(row.id)"])
                try db.execute(
                    sql: """
                        INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, bundle, title,
                            description, keywords, domain_identifier, rating, rating_count, engagement, boost,
                            sources, expires_at, last_seen, published_at, item_json)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        row.id, row.id, row.uniqueIdentifier, row.url, row.bundle, row.title, row.description,
                        row.keywords.isEmpty ? nil : row.keywords.joined(separator: "\n"), row.domain, row.rating,
                        row.ratingCount, row.engagement, row.boost, row.sources, row.expiresAt, row.lastSeen,
                        row.lastSeen, row.json,
                    ])
            }
        }
    }
}
