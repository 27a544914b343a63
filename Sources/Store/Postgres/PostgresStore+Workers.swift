import Foundation
internal import PostgresNIO

/// The crawl workers of a pass on PostgreSQL: renewals, leaving, totals, and dead workers of the same
/// machine (workers on other machines lose their leases when the leases run out).
extension PostgresStore {
    package func renewLeases(worker: CrawlWorker, run: Int64, now: Double, leaseUntil: Double) async throws(StoreError)
    {
        let logger = logger
        try await transaction { connection in
            try await connection.rows(
                """
                UPDATE crawl_url SET lease_until = \(leaseUntil)
                WHERE lease_owner = \(worker.owner) AND state = 'queued'
                """, logger: logger)
            try await connection.rows(
                "UPDATE host_lease SET until = \(leaseUntil) WHERE owner = \(worker.owner)", logger: logger)
            try await connection.rows(
                "UPDATE crawl_worker SET seen_at = \(now) WHERE owner = \(worker.owner)", logger: logger)
            try await Self.releaseDeadWorkers(run: run, of: worker, connection: connection, logger: logger)
        }
    }

    package func leaveRun(_ run: Int64, worker: CrawlWorker, countersJSON: String, now: Double) async throws(StoreError)
    {
        let logger = logger
        try await transaction { connection in
            try await Self.releaseLeases(of: worker.owner, connection: connection, logger: logger)
            try await connection.rows(
                """
                UPDATE crawl_worker SET counters = \(countersJSON), seen_at = \(now), ended_at = \(now)
                WHERE owner = \(worker.owner)
                """, logger: logger)
        }
    }

    package func runWorkers(_ run: Int64) async throws(StoreError) -> [CrawlWorkerRecord] {
        let found = try await records(
            """
            SELECT counters, started_at, seen_at, ended_at FROM crawl_worker
            WHERE run_id = \(run) ORDER BY started_at
            """)
        do {
            return try found.map {
                let row = $0.makeRandomAccess()
                return CrawlWorkerRecord(
                    countersJSON: try row.value("counters"), startedAt: try row.value("started_at"),
                    seenAt: try row.value("seen_at"), endedAt: try row.value("ended_at"))
            }
        } catch {
            throw storeError(error)
        }
    }

    /// Frees the leases of the workers of pass `run` on `worker`'s machine whose process no longer exists.
    static func releaseDeadWorkers(
        run: Int64, of worker: CrawlWorker, connection: PostgresConnection, logger: Logger
    ) async throws {
        let rows = try await connection.rows(
            """
            SELECT owner, pid FROM crawl_worker
            WHERE run_id = \(run) AND machine = \(worker.machine) AND ended_at IS NULL AND owner <> \(worker.owner)
            """, logger: logger)
        for row in rows {
            let row = row.makeRandomAccess()
            let pid = try row.value("pid", as: Int.self)
            guard let pid = Int32(exactly: pid), !CrawlWorker.processExists(pid) else { continue }
            let owner = try row.value("owner", as: String.self)
            try await releaseLeases(of: owner, connection: connection, logger: logger)
            try await connection.rows(
                "UPDATE crawl_worker SET ended_at = seen_at WHERE owner = \(owner)", logger: logger)
        }
    }

    /// Frees every lease of `owner`.
    static func releaseLeases(of owner: String, connection: PostgresConnection, logger: Logger) async throws {
        try await connection.rows(
            "UPDATE crawl_url SET lease_owner = NULL, lease_until = 0 WHERE lease_owner = \(owner)", logger: logger)
        try await connection.rows("DELETE FROM host_lease WHERE owner = \(owner)", logger: logger)
    }
}
