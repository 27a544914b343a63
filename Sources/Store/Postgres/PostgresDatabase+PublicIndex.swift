import Items
internal import PostgresNIO

/// One item found by a search of the public index: the fields `search` prints (SPEC §6).
package struct PublicSearchRow: Sendable, Hashable {
    package var uniqueIdentifier: String
    package var title: String
    package var description: String?
    package var webpageURL: String?
    /// The item's sources as stored: names separated by commas.
    package var sources: String
}

/// The statements of one search of the public index, all on one connection in one read-only transaction
/// (`REPEATABLE READ`: one snapshot, as a SQLite read transaction), handed to the body of
/// ``PostgresDatabase/readPublicIndex(_:)``.
package struct PublicIndexReader: Sendable {
    let connection: PostgresConnection
    let database: PostgresDatabase

    /// The rows `sql` returns, each as its columns' values in order (read as
    /// ``PostgresDatabase/rows(_:_:)`` reads them); `arguments` are bound to `$1`, `$2`… in order.
    /// - Throws: ``StoreError`` when the statement fails.
    package func rows(_ sql: String, _ arguments: [PostgresValue] = []) async throws(StoreError) -> [[PostgresValue]] {
        do {
            let rows = try await connection.query(
                PostgresQuery(unsafeSQL: sql, binds: PostgresDatabase.bindings(arguments)), logger: database.logger)
            var result: [[PostgresValue]] = []
            for try await row in rows {
                result.append(try row.map(PostgresDatabase.value))
            }
            return result
        } catch {
            throw database.storeError(error)
        }
    }

    /// The fields `search` prints of the items `ids` (those that exist), by id.
    /// - Throws: ``StoreError`` when the statement fails.
    package func items(_ ids: [Int64]) async throws(StoreError) -> [Int64: PublicSearchRow] {
        guard !ids.isEmpty else { return [:] }
        var items: [Int64: PublicSearchRow] = [:]
        do {
            // Ids are numbers, written into the statement as such.
            let rows = try await connection.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT id, unique_identifier, title, description, webpage_url, sources FROM public_item
                        WHERE id IN (\(ids.map(String.init).joined(separator: ", ")))
                        """), logger: database.logger)
            for try await (id, identifier, title, description, url, sources) in rows.decode(
                (Int64, String, String, String?, String?, String).self)
            {
                items[id] = PublicSearchRow(
                    uniqueIdentifier: identifier, title: title, description: description, webpageURL: url,
                    sources: sources)
            }
        } catch {
            throw database.storeError(error)
        }
        return items
    }
}

/// The public index's reading operations on PostgreSQL: a search's statements run, the export streamed.
extension PostgresDatabase {
    /// Runs `body`, a search's statements, in one read-only transaction on one connection: every statement
    /// sees the same snapshot. JIT compilation is off for it: a search's statements are short, and a plan
    /// whose estimate is high (a scan the planner costs in full though a `LIMIT` ends it early) would
    /// otherwise spend tens of milliseconds compiling.
    /// - Throws: ``StoreError`` when the transaction cannot be run, or what `body` throws.
    package func readPublicIndex<Result: Sendable>(
        _ body: (PublicIndexReader) async throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                try await connection.query("SET LOCAL jit = off", logger: logger)
                return try await body(PublicIndexReader(connection: connection, database: self))
            }
        } catch let error as PostgresTransactionError {
            if let error = error.closureError as? StoreError { throw error }
            throw storeError(error.closureError ?? error)
        } catch {
            throw storeError(error)
        }
    }

    /// ``PublicIndexStore/forEachPublicItemBatch(batchBytes:_:)`` on PostgreSQL: one statement (one snapshot),
    /// its rows streamed. PostgresNIO reads rows from the connection only as they are consumed (a bounded
    /// read-ahead), so the server waits while `body` writes; the column is `COLLATE "C"`, so the order is
    /// byte order, as on SQLite.
    func forEachPublicItemBatch(batchBytes: Int, _ body: @escaping @Sendable ([String]) throws -> Void)
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
