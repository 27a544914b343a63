import Foundation
import Logging
internal import PostgresNIO
import Synchronization

/// Publishing into a PostgreSQL store: one publisher at a time, everything it reads from one snapshot and
/// everything it writes in one transaction, so searches see the previous index or the new one, never half.
///
/// The publisher first takes a session advisory lock (``publishLockKey``) and only then begins a
/// `REPEATABLE READ` transaction: its snapshot is taken after the previous publisher committed, so two
/// publishes never plan from the same state (SQLite's publisher checks `publish_run` for the same reason).
/// Crawls and imports go on meanwhile; what they commit after the snapshot waits for the next publish.
extension PostgresStore: PublishStore {
    /// ``PublishStore/publish(recordingEngagementThreshold:expiryDays:into:plan:itemCount:write:)`` on
    /// PostgreSQL: everything in one ``publishTransaction(_:)``, the generation ended last.
    package func publish<Snapshot: PublishSnapshotSink, Plan: Sendable, Result: Sendable>(
        recordingEngagementThreshold engagementThreshold: Int?, expiryDays: Double?, into snapshot: Snapshot,
        plan: @escaping @Sendable (Snapshot) async throws -> Plan, itemCount: @escaping @Sendable (Plan) -> Int,
        write: @escaping @Sendable (Plan, any PublishTransaction) async throws -> Result
    ) async throws -> Result {
        try await publishTransaction { transaction in
            if engagementThreshold != nil || expiryDays != nil {
                try await transaction.recordSettings(engagementThreshold: engagementThreshold, expiryDays: expiryDays)
            }
            var read = snapshot
            try await transaction.read(into: &read)
            let result = try await write(try await plan(read), transaction)
            if let generation = transaction.generation.withLock({ $0 }) {
                try await transaction.endGeneration(generation)
            }
            return result
        }
    }

    /// The stored settings, read on `connection`; a threshold or period never recorded is `nil`.
    static func settings(_ connection: PostgresConnection, logger: Logger) async throws -> DonationSettings {
        var settings = DonationSettings(salt: [], engagementThreshold: nil, expiryDays: nil)
        for row in try await connection.rows("SELECT name, value FROM setting", logger: logger) {
            let (name, value) = try row.decode((String, String).self)
            settings.take(name: name, value: value)
        }
        return settings
    }

    /// The advisory lock the one publisher holds ("SLPUBLSH").
    static let publishLockKey: Int64 = 0x534C_5055_424C_5348

    /// Runs `body` as the store's one publisher, in one `REPEATABLE READ` transaction that commits when
    /// `body` returns and rolls back when it throws. A transaction that meets a concurrent write it cannot
    /// be ordered after (serialization failure) or a deadlock is run again from the start, up to
    /// ``maxAttempts`` times: `body` must only write through the transaction.
    /// - Throws: ``StoreError``.
    package func publishTransaction<Result: Sendable>(
        _ body: (PostgresPublishTransaction) async throws -> Result
    ) async throws(StoreError) -> Result {
        try await retrying {
            try await client.withConnection { connection in
                try await connection.rows("SELECT pg_advisory_lock(\(Self.publishLockKey))", logger: logger)
                do {
                    try await connection.rows("BEGIN ISOLATION LEVEL REPEATABLE READ", logger: logger)
                    let result: Result
                    do {
                        result = try await body(PostgresPublishTransaction(connection: connection, logger: logger))
                        try await connection.rows("COMMIT", logger: logger)
                    } catch {
                        _ = try? await connection.rows("ROLLBACK", logger: logger)
                        throw error
                    }
                    // Committed: a failure to unlock must not run the publish again (a broken
                    // connection releases the lock anyway).
                    _ = try? await connection.rows(
                        "SELECT pg_advisory_unlock(\(Self.publishLockKey))", logger: logger)
                    return result
                } catch {
                    // A broken connection takes the session's lock with it.
                    _ = try? await connection.rows(
                        "SELECT pg_advisory_unlock(\(Self.publishLockKey))", logger: logger)
                    throw error
                }
            }
        }
    }
}

/// The publisher's transaction on a PostgreSQL store (``PostgresStore/publishTransaction(_:)``): the
/// reads of its snapshot here, the writes in `PostgresPublishTransaction+Write.swift`, the calls of
/// ``PublishTransaction`` in `PostgresPublishTransaction+Calls.swift`. Only valid inside the closure it was
/// given to. Its one connection runs one statement at a time: PostgresNIO queues the statements of calls
/// made side by side, in the order they came.
package final class PostgresPublishTransaction: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    /// The generation this publish began (``begin(removing:rewriting:changedClusters:publishing:)``), if any.
    let generation = Mutex<Int64?>(nil)

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Reads the whole snapshot into `sink`, in ``PublishSnapshotSink``'s order.
    func read<Sink: PublishSnapshotSink>(into sink: inout Sink) async throws {
        let threshold = sink.begin(settings: try await settings(), lastPublishID: try await lastPublishID())
        try await forEachPage { sink.add(page: $0) }
        try await forEachRedirect { sink.add(redirectFrom: $0, to: $1) }
        try await forEachUnreachable { sink.add(unreachable: $0) }
        try await forEachAssociationFile { sink.add(association: $0) }
        try await forEachActivity { sink.add(activity: $0) }
        try await forEachAppItem { sink.add(appItem: $0) }
        try await forEachStoredCluster { sink.add(storedCluster: $0) }
        sink.take(recordCounts: try await recordCounts(threshold: threshold))
    }

    /// The stored settings; a threshold or period never recorded is `nil`.
    package func settings() async throws -> DonationSettings {
        try await PostgresStore.settings(connection, logger: logger)
    }

    /// Records `engagementThreshold` and/or `expiryDays` when given; a threshold also removes the content
    /// of activities below it (below it only hashes may be kept).
    package func recordSettings(engagementThreshold: Int?, expiryDays: Double?) async throws {
        var values: [(name: String, value: String)] = []
        if let engagementThreshold { values.append(("engagement_threshold", String(engagementThreshold))) }
        if let expiryDays { values.append(("expiry_days", String(expiryDays))) }
        for (name, value) in values {
            try await connection.rows(
                """
                INSERT INTO setting (name, value) VALUES (\(name), \(value))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, logger: logger)
        }
        if let engagementThreshold {
            try await connection.rows("DELETE FROM activity WHERE donors < \(engagementThreshold)", logger: logger)
        }
    }

    /// The id of the last publish (0 before the first).
    package func lastPublishID() async throws -> Int64 {
        try await connection.rows("SELECT coalesce(max(id), 0)::int8 FROM publish_run", logger: logger)
            .first?.decode(Int64.self) ?? 0
    }

    /// Every crawled page, in URL order, with its frontier key.
    package func forEachPage(_ body: (PublishPageRow) throws -> Void) async throws {
        let rows = try await connection.query(
            """
            SELECT page.url, page.final_url, page.canonical_url, page.http_status, page.is_indexable, page.is_gone,
                   coalesce(length(page.title), 0) > 0, page.fetched_at, page.changed_at, crawl_url.url_key,
                   crawl_url.host
            FROM page LEFT JOIN crawl_url ON crawl_url.url = page.url ORDER BY page.url
            """, logger: logger)
        for try await row in rows {
            let columns = try row.decode(
                (String, String, String?, Int, Bool, Bool, Bool, Double, Double, String?, String?).self)
            try body(
                PublishPageRow(
                    url: columns.0, finalURL: columns.1, canonicalURL: columns.2, httpStatus: columns.3,
                    isIndexable: columns.4, isGone: columns.5, hasTitle: columns.6, fetchedAt: columns.7,
                    changedAt: columns.8, urlKey: columns.9, host: columns.10))
        }
    }

    /// Every recorded redirect, by source URL.
    package func forEachRedirect(_ body: (_ from: String, _ to: String) throws -> Void) async throws {
        let rows = try await connection.query("SELECT from_url, to_url FROM redirect ORDER BY from_url", logger: logger)
        for try await (from, to) in rows.decode((String, String).self) { try body(from, to) }
    }

    /// Every page URL the crawler gave up on.
    package func forEachUnreachable(_ body: (PublishUnreachableRow) throws -> Void) async throws {
        let rows = try await connection.query(
            """
            SELECT url, url_key, \(unescaped: PublishUnreachableRow.Cause.column)
            FROM crawl_url WHERE state IN ('failed', 'skipped') AND kind = 'page' ORDER BY id
            """, logger: logger)
        for try await (url, key, cause) in rows.decode((String, String?, Int).self) {
            try body(
                PublishUnreachableRow(
                    url: url, urlKey: key, cause: PublishUnreachableRow.Cause(rawValue: cause) ?? .failed))
        }
    }

    /// Every origin's stored apple-app-site-association that was served (200) with a body.
    package func forEachAssociationFile(_ body: (PublishAssociationRow) throws -> Void) async throws {
        let rows = try await connection.query(
            """
            SELECT host, body FROM host_file
            WHERE name = 'apple-app-site-association' AND http_status = 200 AND body IS NOT NULL ORDER BY host
            """, logger: logger)
        for try await (host, bytes) in rows.decode((String, Data).self) {
            try body(PublishAssociationRow(host: host, body: [UInt8](bytes)))
        }
    }

    /// Every stored activity, in id order.
    package func forEachActivity(_ body: (PublishActivityRow) throws -> Void) async throws {
        let rows = try await connection.query(
            """
            SELECT id, bundle, activity_type, persistent_identifier, webpage_url, url_key, related_id,
                   user_info IS NOT NULL, expires_at, donors, last_seen, version
            FROM activity ORDER BY id
            """, logger: logger)
        for try await row in rows {
            let columns = try row.decode(
                (Int64, String, String, String?, String?, String?, String?, Bool, Double?, Int, Double, Int64).self)
            try body(
                PublishActivityRow(
                    id: columns.0, bundle: columns.1, activityType: columns.2, persistentIdentifier: columns.3,
                    webpageURL: columns.4, urlKey: columns.5, relatedID: columns.6, hasUserInfo: columns.7,
                    expiresAt: columns.8, donors: columns.9, lastSeen: columns.10, version: columns.11))
        }
    }

    /// Every donated searchable item, by bundle and identifier.
    package func forEachAppItem(_ body: (PublishAppItemRow) throws -> Void) async throws {
        let rows = try await connection.query(
            "SELECT bundle, unique_identifier, expires_at, last_seen FROM app_item ORDER BY bundle, unique_identifier",
            logger: logger)
        for try await (bundle, identifier, expiresAt, lastSeen) in rows.decode((String, String, Double?, Double).self) {
            try body(
                PublishAppItemRow(
                    bundle: bundle, uniqueIdentifier: identifier, expiresAt: expiresAt, lastSeen: lastSeen))
        }
    }

    /// The clusters of the last publish.
    package func forEachStoredCluster(_ body: (StoredClusterRow) throws -> Void) async throws {
        let rows = try await connection.query(
            "SELECT id, key, fingerprint, valid_until FROM cluster", logger: logger)
        for try await (id, key, fingerprint, validUntil) in rows.decode((Int64, String, Data, Double?).self) {
            try body(
                StoredClusterRow(
                    id: id, key: key, fingerprint: StoredClusterRow.fingerprint(fingerprint), validUntil: validUntil))
        }
    }

    /// Records never stored, by reason, and how many activities are still below `threshold` donors.
    package func recordCounts(threshold: Int) async throws -> (withheld: [String: Int], belowThreshold: Int) {
        var withheld: [String: Int] = [:]
        let rows = try await connection.rows(
            "SELECT reason, count(*)::int8 FROM withheld_record GROUP BY reason", logger: logger)
        for row in rows {
            let (reason, count) = try row.decode((String, Int).self)
            withheld[reason, default: 0] += count
        }
        let below =
            try await connection.rows(
                """
                SELECT count(*)::int8 FROM (SELECT identity FROM donation GROUP BY identity HAVING count(*) < \(threshold)) b
                """, logger: logger
            ).first?.decode(Int.self) ?? 0
        return (withheld, below)
    }
}
