import Foundation
import GRDB

extension SQLiteStore {
    /// Renews every lease `worker` holds (its URLs and host slots and tasks) until `leaseUntil`, records
    /// it as seen at `now`, and frees the leases of workers of this machine whose process is gone.
    package func renewLeases(worker: CrawlWorker, run: Int64, now: Double, leaseUntil: Double)
        async throws(StoreError)
    {
        try await write { db in
            try db.execute(
                sql: "UPDATE crawl_url SET lease_until = ? WHERE lease_owner = ? AND state = 'queued'",
                arguments: [leaseUntil, worker.owner])
            try db.execute(
                sql: "UPDATE host_lease SET until = ? WHERE owner = ?", arguments: [leaseUntil, worker.owner])
            try db.execute(
                sql: "UPDATE crawl_worker SET seen_at = ? WHERE owner = ?", arguments: [now, worker.owner])
            try Self.releaseDeadWorkers(run: run, of: worker, now: now, db: db)
        }
    }

    /// Ends `worker`'s part in the pass: its counters stored, every lease it still holds freed (URLs it
    /// took and did not finish go back to the queue at once).
    package func leaveRun(_ run: Int64, worker: CrawlWorker, countersJSON: String, now: Double)
        async throws(StoreError)
    {
        try await write { db in
            try Self.releaseLeases(of: worker.owner, db: db)
            try db.execute(
                sql: "UPDATE crawl_worker SET counters = ?, seen_at = ?, ended_at = ? WHERE owner = ?",
                arguments: [countersJSON, now, now, worker.owner])
        }
    }

    /// The workers that took part in pass `run`, with their counters, for the pass's totals.
    package func runWorkers(_ run: Int64) async throws(StoreError) -> [CrawlWorkerRecord] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT counters, started_at, seen_at, ended_at FROM crawl_worker
                    WHERE run_id = ? ORDER BY started_at
                    """,
                arguments: [run]
            ).map {
                CrawlWorkerRecord(
                    countersJSON: $0["counters"], startedAt: $0["started_at"], seenAt: $0["seen_at"],
                    endedAt: $0["ended_at"])
            }
        }
    }

    /// Frees the leases of the workers of pass `run` on `worker`'s machine whose process no longer
    /// exists: killed, their URLs need not wait for the leases to run out.
    static func releaseDeadWorkers(run: Int64, of worker: CrawlWorker, now: Double, db: Database) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT owner, pid FROM crawl_worker
                WHERE run_id = ? AND machine = ? AND ended_at IS NULL AND owner != ?
                """,
            arguments: [run, worker.machine, worker.owner])
        for row in rows where !CrawlWorker.processExists(row["pid"]) {
            let owner: String = row["owner"]
            try releaseLeases(of: owner, db: db)
            try db.execute(
                sql: "UPDATE crawl_worker SET ended_at = seen_at WHERE owner = ?", arguments: [owner])
        }
    }

    /// Frees every lease of `owner`.
    static func releaseLeases(of owner: String, db: Database) throws {
        try db.execute(
            sql: "UPDATE crawl_url SET lease_owner = NULL, lease_until = 0 WHERE lease_owner = ?", arguments: [owner])
        try db.execute(sql: "DELETE FROM host_lease WHERE owner = ?", arguments: [owner])
    }
}
