import GRDB
import Items

extension SQLiteStore: PublicIndexStore {
    /// The store's own tables: a SQLite store answers searches itself.
    package var ownSearchSource: SearchSource? { .store(self) }

    package func recordedExpiryDays() async throws(StoreError) -> Double? {
        try await read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'expiry_days'") }
            .flatMap(Double.init)
    }

    /// Nothing to read: searches read the store itself, and their source checks it.
    package func checkReadable() async throws(StoreError) {}

    /// Nothing to close: the pool closes with the store's last reference.
    package func close() async {}

    /// The columns a published item's JSON is put back together from, in the order
    /// ``StoredItem/publishedJSON(stored:title:description:keywords:)`` takes them; the same on both engines.
    static let publishedItemColumns = "item_json, title, description, keywords"

    /// ``PublicIndexStore/forEachPublicItemBatch(batchBytes:_:)`` on SQLite: one read transaction, a cursor
    /// over the unique index on `unique_identifier` (the order without a sort). Each item is put back
    /// together from its stored form and its columns (``StoredItem``).
    package func forEachPublicItemBatch(batchBytes: Int, _ body: @escaping @Sendable ([String]) throws -> Void)
        async throws -> Int
    {
        do {
            return try await pool.read { db in
                var batcher = PublicItemBatcher(batchBytes: batchBytes)
                let cursor = try Row.fetchCursor(
                    db, sql: "SELECT \(SQLiteStore.publishedItemColumns) FROM public_item ORDER BY unique_identifier")
                while let row = try cursor.next() {
                    try batcher.add(
                        StoredItem.publishedJSON(stored: row[0], title: row[1], description: row[2], keywords: row[3]),
                        body)
                }
                try batcher.flush(body)
                return batcher.count
            }
        } catch let error as DatabaseError {
            throw StoreError(path: path, underlying: error)
        }
    }
}
