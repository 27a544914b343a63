import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite struct IndexSchemaTests {
    /// Each store gets its own hashing key, so hashes of the same URL differ between stores.
    @Test func everyStoreHasItsOwnSalt() throws {
        let first = try TemporaryStore()
        let second = try TemporaryStore()
        defer {
            first.cleanUp()
            second.cleanUp()
        }
        _ = try first.open()
        _ = try second.open()
        let saltA = try first.readOnly { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'salt'")
        }
        let saltB = try second.readOnly { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'salt'")
        }
        #expect(saltA?.count == 64)
        #expect(saltA != saltB)
    }

    /// The FTS index follows the public items through its triggers.
    @Test func ftsFollowsPublicItems() throws {
        let store = try TemporaryStore()
        defer { store.cleanUp() }
        _ = try store.open()
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
                    VALUES (1, 'k', x'00', 1, 'published', '[]', '[]');
                    INSERT INTO public_item (id, cluster_id, unique_identifier, title, description, keywords,
                        engagement, boost, sources, last_seen, published_at, item_json)
                    VALUES (7, 1, 'u', 'Lemon tart', 'A sharp tart', 'dessert', 0, 0, 'web', 0, 0, '{}');
                    """)
        }
        let hits = try queue.read { db in
            try Int.fetchAll(db, sql: "SELECT rowid FROM public_fts WHERE public_fts MATCH 'lem*'")
        }
        #expect(hits == [7])
        try queue.write { db in try db.execute(sql: "DELETE FROM cluster WHERE id = 1") }
        let after = try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM public_fts WHERE public_fts MATCH 'lemon'")
        }
        #expect(after == 0)
    }
}
