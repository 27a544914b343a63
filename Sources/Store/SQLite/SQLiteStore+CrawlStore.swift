import Foundation
import GRDB

/// The crawl passes and the frontier's reads on SQLite (``CrawlStore``); the leases, workers and commits in
/// `SQLiteStore+Leases`, `+Workers` and `+Commit`.
extension SQLiteStore: CrawlStore {
    package var displayName: String { path }

    /// Joins the unfinished pass if there is one, else starts a new one, and registers `worker` in it.
    ///
    /// URLs of an unfinished pass that were in flight when a worker died are still `queued` (a URL
    /// leaves that state only in the transaction that stores its result); their leases free them when
    /// they run out, at once when the dead worker ran on this machine (its process is gone).
    ///
    /// With `refreshingAt`, a new pass is a refresh pass from that time (``RefreshRules``): its seeds are
    /// every earlier pass's and `seeds`, and it starts with the sitemaps and the pages due queued.
    package func beginRun(
        seeds: [String], now: Double, worker: CrawlWorker, refreshingAt: Double?
    ) async throws(StoreError) -> CrawlRunInfo {
        try await write { db in
            let info: CrawlRunInfo
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, started_at, counters, seeds, due_before FROM crawl_run
                    WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1
                    """)
            {
                info = CrawlRunInfo(
                    id: row["id"], isResumed: true, startedAt: row["started_at"], countersJSON: row["counters"],
                    seeds: RefreshRules.decodeSeeds(row["seeds"]), dueBefore: row["due_before"])
            } else {
                var passSeeds = seeds
                if refreshingAt != nil {
                    let earlier = try String.fetchAll(db, sql: "SELECT seeds FROM crawl_run ORDER BY id")
                    passSeeds = RefreshRules.seeds(earlier: earlier, given: seeds)
                }
                try db.execute(
                    sql: "INSERT INTO crawl_run (started_at, seeds, due_before) VALUES (?, ?, ?)",
                    arguments: [now, RefreshRules.encodeSeeds(passSeeds), refreshingAt])
                let id = db.lastInsertedRowID
                var due = 0
                if let refreshingAt {
                    try db.execute(
                        sql: RefreshRules.queueSitemaps(run: "?1", dueBefore: "?2"), arguments: [id, refreshingAt])
                    try db.execute(
                        sql: RefreshRules.queueDuePages(run: "?1", dueBefore: "?2"), arguments: [id, refreshingAt])
                    due = db.changesCount
                }
                info = CrawlRunInfo(
                    id: id, isResumed: false, startedAt: now, countersJSON: "{}", seeds: passSeeds,
                    dueBefore: refreshingAt, due: due)
            }
            try db.execute(
                sql: """
                    INSERT INTO crawl_worker (owner, run_id, machine, pid, started_at, seen_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [worker.owner, info.id, worker.machine, worker.pid, now, now])
            try Self.releaseDeadWorkers(run: info.id, of: worker, now: now, db: db)
            return info
        }
    }

    package func seedsOfEveryPass() async throws(StoreError) -> [String] {
        try await read { db in
            RefreshRules.seeds(
                earlier: try String.fetchAll(db, sql: "SELECT seeds FROM crawl_run ORDER BY id"), given: [])
        }
    }

    /// Marks the pass finished when nothing of it is queued any more (another worker may still have
    /// work), or at once with `force` (the page budget is spent): the next `crawl` starts a new pass.
    package func finishRun(_ id: Int64, force: Bool, now: Double) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE crawl_run SET finished_at = ? WHERE id = ? AND finished_at IS NULL
                      AND (? OR NOT EXISTS (SELECT 1 FROM crawl_url WHERE run_id = ? AND state = 'queued'))
                    """,
                arguments: [now, id, force, id])
        }
    }

    /// The hosts with URLs queued in pass `run`, each with the earliest time one is free and due for `worker`.
    package func queuedHosts(run: Int64, worker: CrawlWorker) async throws(StoreError) -> [QueuedHost] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT host,
                           MIN(CASE WHEN lease_owner IS NULL THEN not_before
                                    WHEN lease_owner = ? THEN NULL
                                    ELSE MAX(not_before, lease_until) END) AS due,
                           MAX(lease_owner IS NOT NULL AND lease_owner != ?) AS others
                    FROM crawl_url WHERE run_id = ? AND state = 'queued' GROUP BY host
                    """,
                arguments: [worker.owner, worker.owner, run]
            ).compactMap { row in
                // A host whose queued URLs are all this worker's (taken, in flight) has nothing new for it.
                guard let due = row["due"] as Double? else { return nil }
                return QueuedHost(host: row["host"], due: due, leasedByOthers: row["others"])
            }
        }
    }

    /// The stored copy of a per-host file, if any.
    package func hostFile(host: String, name: String) async throws(StoreError) -> HostFile? {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM host_file WHERE host = ? AND name = ?", arguments: [host, name])
            else { return nil }
            return Self.hostFile(row, host: host, name: name)
        }
    }
}

extension SQLiteStore {
    /// URLs still queued in pass `run`.
    package func queuedCount(run: Int64) async throws(StoreError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM crawl_url WHERE run_id = ? AND state = 'queued'", arguments: [run]) ?? 0
        }
    }
}
