import Foundation
import Logging
internal import PostgresNIO

/// A published item as the public index holds it, with the cluster it belongs to and when it was published:
/// what a replica copies from a PostgreSQL store (``IndexReplica``).
package struct PublishedItemRow: Sendable {
    package var clusterID: Int64
    package var publishedAt: Double
    package var item: PublicItemWrite
}

/// Where a PostgreSQL store's public index stands: its last committed generation and the oldest generation
/// a replica can be brought forward from (``IndexGeneration``).
package struct IndexHead: Sendable, Equatable {
    package var generation: Int64
    package var historyFrom: Int64
}

/// The reads of one sync, all in one `REPEATABLE READ` read-only transaction: the head and the changes after a
/// generation come from the same snapshot, so a replica never applies half of a publish.
package struct IndexSnapshotReader: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    /// The index's last generation and history floor in this snapshot.
    package func head() async throws -> IndexHead {
        var head = IndexHead(generation: 0, historyFrom: 0)
        let rows = try await connection.query(
            """
            SELECT name, value::int8 FROM setting
            WHERE name IN (\(IndexGeneration.currentSetting), \(IndexGeneration.historySetting))
            """, logger: logger)
        for try await (name, value) in rows.decode((String, Int64).self) {
            if name == IndexGeneration.currentSetting { head.generation = value } else { head.historyFrom = value }
        }
        return head
    }

    /// The ids removed by the generations after `generation`.
    package func removedIDs(after generation: Int64) async throws -> [Int64] {
        var ids: [Int64] = []
        let rows = try await connection.query(
            "SELECT DISTINCT id FROM public_item_removal WHERE generation > \(generation)", logger: logger)
        for try await id in rows.decode(Int64.self) { ids.append(id) }
        return ids
    }

    /// How many items the generations after `generation` wrote (that are still there).
    package func writtenCount(after generation: Int64) async throws -> Int {
        try await connection.rows(
            "SELECT count(*)::int8 FROM public_item WHERE generation > \(generation)", logger: logger
        ).first?.decode(Int.self) ?? 0
    }

    /// Calls `body` with the items written after `generation` (every item when `nil`), in id order, `batchSize`
    /// at a time. Rows are read from the connection as they are consumed.
    package func forEachItemBatch(
        after generation: Int64?, batchSize: Int, _ body: ([PublishedItemRow]) async throws -> Void
    ) async throws {
        let rows = try await connection.query(
            """
            SELECT id, cluster_id, unique_identifier, webpage_url, bundle, title, description, keywords,
                   domain_identifier, rating, rating_count, engagement, boost, sources, expires_at, last_seen,
                   published_at, item_json, title_fold
            FROM public_item WHERE generation > \(generation ?? -1) ORDER BY id
            """, logger: logger)
        var batch: [PublishedItemRow] = []
        batch.reserveCapacity(batchSize)
        for try await row in rows {
            let column = row.makeRandomAccess()
            let item = PublicItemWrite(
                id: try column[0].decode(Int64.self), uniqueIdentifier: try column[2].decode(String.self),
                webpageURL: try column[3].decode(String?.self), bundle: try column[4].decode(String?.self),
                title: try column[5].decode(String.self), description: try column[6].decode(String?.self),
                keywords: try column[7].decode(String?.self), domainIdentifier: try column[8].decode(String?.self),
                rating: try column[9].decode(Double?.self), ratingCount: try column[10].decode(Int?.self),
                engagement: try column[11].decode(Int.self), boost: try column[12].decode(Double.self),
                sources: try column[13].decode(String.self), expiresAt: try column[14].decode(Double?.self),
                lastSeen: try column[15].decode(Double.self), itemJSON: try column[17].decode(String.self),
                titleFold: try column[18].decode(String.self), gramRow: nil)
            batch.append(
                PublishedItemRow(
                    clusterID: try column[1].decode(Int64.self), publishedAt: try column[16].decode(Double.self),
                    item: item))
            if batch.count >= batchSize {
                try await body(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { try await body(batch) }
    }
}

extension PostgresStore {
    /// Runs `body` in one `REPEATABLE READ`, read-only transaction on one connection (one snapshot).
    /// - Throws: ``StoreError`` when the transaction fails, or what `body` throws as a ``StoreError``.
    package func readIndexSnapshot<Result: Sendable>(
        _ body: (IndexSnapshotReader) async throws -> Result
    ) async throws(StoreError) -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                return try await body(IndexSnapshotReader(connection: connection, logger: logger))
            }
        } catch let error as PostgresTransactionError {
            if let error = error.closureError as? StoreError { throw error }
            throw storeError(error.closureError ?? error)
        } catch {
            throw storeError(error)
        }
    }

    /// The index's head, read on its own (a cheap check whether a replica is behind).
    package func indexHead() async throws(StoreError) -> IndexHead {
        try await readIndexSnapshot { reader in try await reader.head() }
    }

    /// What binds a replica to this store: the cluster's system identifier (from `initdb`; a copy of the data
    /// on another cluster has another) and the database's name, as `SYSTEM_ID/NAME`. Where the system
    /// identifier cannot be read (a managed service may refuse `pg_control_system()`), `0` stands for it.
    package func storeIdentity() async throws(StoreError) -> String {
        do {
            let name =
                try await client.query("SELECT current_database()::text", logger: logger).collect().first?
                .decode(String.self) ?? ""
            let system =
                (try? await client.query(
                    "SELECT system_identifier::text FROM pg_control_system()", logger: logger
                ).collect().first?.decode(String.self)) ?? "0"
            return "\(system)/\(name)"
        } catch {
            throw storeError(error)
        }
    }
}

extension PostgresStore {
    /// Listens for committed publishes (``IndexGeneration/channel``) on a connection of its own and calls
    /// `onPublish` with each one's generation, until the task is cancelled or the connection fails.
    /// - Throws: ``StoreError`` when the connection fails (the caller listens again after a pause).
    package func listenForPublishes(_ onPublish: @escaping @Sendable (Int64?) async -> Void) async throws(StoreError) {
        do {
            try await client.withConnection { connection in
                try await connection.listen(on: IndexGeneration.channel) { notifications in
                    for try await notification in notifications { await onPublish(Int64(notification.payload)) }
                }
            }
        } catch is CancellationError {
            return
        } catch {
            throw storeError(error)
        }
    }
}
