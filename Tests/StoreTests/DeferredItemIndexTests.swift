import Foundation
import GRDB
import Testing

@testable import Store

/// A publish into an empty index builds `public_item`'s secondary indexes once at the end
/// (``SQLitePublishWriter/deferItemIndexes(writing:threshold:)``): the same indexes, defined as before, and
/// only then.
@Suite("Item indexes set aside during a large publish into an empty index")
struct DeferredItemIndexTests {
    static func indexes(_ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT name || ': ' || coalesce(sql, '') FROM sqlite_master
                WHERE type = 'index' AND tbl_name = 'public_item' ORDER BY name
                """)
    }

    @Test("dropped while an empty index is written, built again from their own definitions at the end")
    func rebuiltAlike() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deferred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("s.sqlite").path)
        try store.pool.write { db in
            let before = try Self.indexes(db)
            #expect(before.count >= 6)
            let writer = SQLitePublishWriter(db)
            try writer.removeClusters([], rewriting: [])
            try writer.deferItemIndexes(writing: 10, threshold: 10)
            // Only the unique keys (constraints) are left while the items are written.
            #expect(try Self.indexes(db).allSatisfy { $0.hasPrefix("sqlite_autoindex_public_item") })
            try writer.finishIndexes()
            #expect(try Self.indexes(db) == before)

            // Below the threshold, or with items already there, nothing is set aside.
            try writer.removeClusters([], rewriting: [])
            try writer.deferItemIndexes(writing: 9, threshold: 10)
            #expect(try Self.indexes(db) == before)
            try db.execute(
                sql: """
                    INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
                    VALUES (1, 'k', x'00', 1, 'published', '[]', '[]');
                    INSERT INTO public_item (id, cluster_id, unique_identifier, title, engagement, boost, sources,
                        last_seen, published_at, item_json) VALUES (1, 1, 'a', 'A', 1, 0, 'web', 0, 0, '{}');
                    """)
            try writer.deferItemIndexes(writing: 10, threshold: 10)
            #expect(try Self.indexes(db) == before)
            try writer.finishIndexes()
        }
    }
}
