import GRDB

extension Store {
    /// ``PublicIndexStore/forEachPublicItemBatch(batchBytes:_:)`` on SQLite: one read transaction, a cursor
    /// over the unique index on `unique_identifier` (the order without a sort).
    func forEachPublicItemBatch(batchBytes: Int, _ body: @escaping @Sendable ([String]) throws -> Void)
        async throws -> Int
    {
        do {
            return try await pool.read { db in
                var batcher = PublicItemBatcher(batchBytes: batchBytes)
                let cursor = try String.fetchCursor(
                    db, sql: "SELECT item_json FROM public_item ORDER BY unique_identifier")
                while let json = try cursor.next() { try batcher.add(json, body) }
                try batcher.flush(body)
                return batcher.count
            }
        } catch let error as DatabaseError {
            throw StoreError(path: path, underlying: error)
        }
    }
}
