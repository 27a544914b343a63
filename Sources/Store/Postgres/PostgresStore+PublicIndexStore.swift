import Items
internal import PostgresNIO

/// The public index's reading on PostgreSQL that is not a search (searches read a replica, ``IndexReplica``):
/// the export, streamed.
extension PostgresStore: PublicIndexStore {
    /// None: a PostgreSQL store's searches read a replica (``IndexReplica``).
    package var ownSearchSource: SearchSource? { nil }

    package func recordedExpiryDays() async throws(StoreError) -> Double? {
        guard
            case .text(let value) = try await rows("SELECT value FROM setting WHERE name = 'expiry_days'").first?.first
        else { return nil }
        return Double(value)
    }

    /// Reads the first published item's id.
    package func checkReadable() async throws(StoreError) {
        _ = try await rows("SELECT id FROM public_item ORDER BY id LIMIT 1")
    }

    /// ``PublicIndexStore/forEachPublicItemBatch(batchBytes:_:)`` on PostgreSQL: one statement (one snapshot),
    /// its rows streamed. PostgresNIO reads rows from the connection only as they are consumed (a bounded
    /// read-ahead), so the server waits while `body` writes; the column is `COLLATE "C"`, so the order is
    /// byte order, as on SQLite.
    package func forEachPublicItemBatch(batchBytes: Int, _ body: @escaping @Sendable ([String]) throws -> Void)
        async throws -> Int
    {
        // What `body` throws is told apart from the store's failures and rethrown as it is.
        struct Failure: Error { var error: any Error }
        let handOver: ([String]) throws -> Void = { batch in
            do { try body(batch) } catch { throw Failure(error: error) }
        }
        do {
            let rows = try await client.query(
                "SELECT item_json, title, description, keywords FROM public_item ORDER BY unique_identifier",
                logger: logger)
            var batcher = PublicItemBatcher(batchBytes: batchBytes)
            let decoded = rows.decode((String, String, String?, String?).self)
            for try await (stored, title, description, keywords) in decoded {
                let json = StoredItem.publishedJSON(
                    stored: stored, title: title, description: description, keywords: keywords)
                try batcher.add(json, handOver)
            }
            try batcher.flush(handOver)
            return batcher.count
        } catch let failure as Failure {
            throw failure.error
        } catch {
            throw storeError(error)
        }
    }
}
