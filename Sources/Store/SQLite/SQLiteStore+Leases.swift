import Foundation
import GRDB

extension SQLiteStore {
    /// Takes up to `limit` URLs of `host` that are due at `now` in pass `run` and free (never taken,
    /// or their lease ran out), sitemaps first, then by depth (breadth-first) and discovery order, and
    /// leases them to `worker` until `leaseUntil`, in one transaction: no two workers take one URL.
    ///
    /// The lease ends in the transaction that stores the URL's result (``commit(_:run:worker:)``), when
    /// the worker leaves the pass, or when it runs out without being renewed.
    package func claimURLs(
        run: Int64, host: String, worker: CrawlWorker, now: Double, leaseUntil: Double, limit: Int
    ) async throws(StoreError) -> [FrontierURL] {
        try await write { db in
            // One indexed range per kind (sitemaps first), ordered as the index is (depth, id), and the
            // page lookup only for the rows kept: the sort never touches the rest of the queue. Rows
            // leased by others are few (a buffer per worker), so reading past them is cheap.
            var rows: [Row] = []
            for kind in [FrontierKind.sitemap, .page] {
                let wanted = limit - rows.count
                guard wanted > 0 else { break }
                // The kind is written into the statement, one per kind: a parameter compared with the
                // column of a partial index's condition (`crawl_url_sitemap`) makes SQLite compile the
                // statement again whenever its value changes, which alternating kinds would do on every call.
                rows += try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT c.id, c.url, c.host, c.kind, c.depth, c.redirect_hops, c.source, c.attempts,
                                   c.etag, c.last_modified, c.content_hash, c.revisit_interval, p.links,
                                   p.is_indexable,
                                   CASE WHEN c.source = '\(DiscoverySource.activity.rawValue)' THEN (
                                       SELECT group_concat(bundle, char(10))
                                       FROM (SELECT DISTINCT bundle FROM activity AS a WHERE a.url_key = c.url_key))
                                   END AS apps
                            FROM (SELECT * FROM crawl_url
                                  WHERE run_id = ? AND state = 'queued' AND host = ? AND kind = '\(kind.rawValue)'
                                    AND not_before <= ? AND lease_until <= ?
                                  ORDER BY depth, id LIMIT ?) AS c
                            LEFT JOIN page p ON p.url = c.url
                            ORDER BY c.depth, c.id
                            """),
                    arguments: [run, host, now, now, wanted])
            }
            let lease = try db.cachedStatement(
                sql: "UPDATE crawl_url SET lease_owner = ?, lease_until = ? WHERE id = ?")
            // Columns by position, in the order the statement selects them: a name is looked up by
            // lowercasing it and every column name before it, per row.
            return try rows.map { row in
                let id: Int64 = row[0]
                try lease.execute(arguments: [worker.owner, leaseUntil, id])
                return FrontierURL(
                    id: id, url: row[1], host: row[2],
                    kind: FrontierKind(rawValue: row[3]) ?? .page,
                    depth: row[4], redirectHops: row[5],
                    source: DiscoverySource(stored: row[6]),
                    attempts: row[7],
                    etag: row[8], lastModified: row[9], contentHash: row[10],
                    storedLinks: row[12], wasIndexable: row[13],
                    revisitInterval: row[11], donatingApps: CrawlLeaseRules.lines(row[14]))
            }
        }
    }

    /// Takes one of `host`'s `slots` request slots for `worker` (the per-host cap across all workers),
    /// when the host's next request may start at `now`, and moves that time `spacing` seconds on.
    ///
    /// ``HostSlotRule`` decides which slot, within the worker's share. `reusing` names a slot the worker
    /// holds and no longer uses; after `.full` the worker no longer holds it (given back beyond its share,
    /// or taken over once its lease ran out). With every slot taken, or the share reached, the answer is to
    /// look again shortly: requests end at any time.
    package func claimHostSlot(
        host: String, run: Int64, worker: CrawlWorker, now: Double, slots: Int, spacing: Double,
        leaseUntil: Double, reusing: Int?
    ) async throws(StoreError) -> HostSlotClaim {
        try await write { db in
            // Cached statements: a busy crawl claims a slot for nearly every request.
            let next =
                try Double.fetchOne(
                    db.cachedStatement(sql: "SELECT next_request_at FROM crawl_host WHERE host = ?"),
                    arguments: [host]) ?? 0
            if next > now { return .wait(until: next) }
            var taken: [Int: HostSlotRule.Holder] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT name, owner, until FROM host_lease WHERE host = ? AND name LIKE 'slot:%'"),
                arguments: [host])
            {
                guard let slot = HostSlotRule.slot(named: row["name"]) else { continue }
                taken[slot] = HostSlotRule.Holder(owner: row["owner"], until: row["until"])
            }
            let live =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT COUNT(*) FROM crawl_worker WHERE run_id = ? AND ended_at IS NULL AND seen_at >= ?"),
                    arguments: [run, now - (leaseUntil - now)]) ?? 1
            let rule = HostSlotRule(slots: slots, liveWorkers: live)
            let slot: Int
            switch rule.decide(taken: taken, owner: worker.owner, reusing: reusing, now: now) {
            case .full:
                return .full(until: now + CrawlLeaseRules.slotPollInterval)
            case .giveBack(let given):
                try db.execute(
                    sql: "DELETE FROM host_lease WHERE host = ? AND name = ?",
                    arguments: [host, HostSlotRule.name(of: given)])
                return .full(until: now + CrawlLeaseRules.slotPollInterval)
            case .use(let chosen):
                slot = chosen
            }
            try db.cachedStatement(
                sql: """
                    INSERT INTO host_lease (host, name, owner, until) VALUES (?, ?, ?, ?)
                    ON CONFLICT (host, name) DO UPDATE SET owner = excluded.owner, until = excluded.until
                    """
            ).execute(arguments: [host, HostSlotRule.name(of: slot), worker.owner, leaseUntil])
            try Self.setNextRequest(host: host, at: now + spacing, db: db)
            return .granted(slot: slot)
        }
    }

    /// Takes the host's once-per-pass fetch `name` (robots.txt, apple-app-site-association) for `worker`
    /// unless another worker holds it. With `spacing`, the host's delay applies to it as to any request
    /// and moves on by `spacing`; without, it may start at once (robots.txt comes before every other request).
    ///
    /// A result another worker stored meanwhile (a copy of `name` fetched at or after `storedSince`, or for
    /// robots.txt a failure recorded for pass `run` that is not to be retried yet) is not fetched again:
    /// the answer is then to look again now, and the worker finds the result in the store.
    package func claimHostTask(
        host: String, name: String, worker: CrawlWorker, now: Double, leaseUntil: Double, spacing: Double?,
        storedSince: Double, run: Int64
    ) async throws(StoreError) -> HostTaskClaim {
        try await write { db in
            if let fetchedAt = try Double.fetchOne(
                db, sql: "SELECT fetched_at FROM host_file WHERE host = ? AND name = ?", arguments: [host, name]),
                fetchedAt >= storedSince
            {
                return .wait(until: now)
            }
            if let row = try Row.fetchOne(
                db,
                sql: "SELECT robots_final, robots_retry_at FROM crawl_host WHERE host = ? AND robots_run = ?",
                arguments: [host, run]),
                name == CrawlLeaseRules.robotsFileName,
                (row["robots_final"] as String?) != nil || (row["robots_retry_at"] as Double) > now
            {
                return .wait(until: now)
            }
            // Held by another worker: the host's delay is not moved on for a request nobody makes.
            let held =
                try Bool.fetchOne(
                    db,
                    sql:
                        "SELECT EXISTS (SELECT 1 FROM host_lease WHERE host = ? AND name = ? AND until > ? AND owner != ?)",
                    arguments: [host, name, now, worker.owner]) ?? false
            if held { return .wait(until: now + CrawlLeaseRules.taskPollInterval) }
            if let spacing {
                let next =
                    try Double.fetchOne(
                        db, sql: "SELECT next_request_at FROM crawl_host WHERE host = ?", arguments: [host]) ?? 0
                if next > now { return .wait(until: next) }
                try Self.setNextRequest(host: host, at: now + spacing, db: db)
            }
            try db.execute(
                sql: """
                    INSERT INTO host_lease (host, name, owner, until) VALUES (?, ?, ?, ?)
                    ON CONFLICT (host, name) DO UPDATE SET owner = excluded.owner, until = excluded.until
                    """,
                arguments: [host, name, worker.owner, leaseUntil])
            return .claimed
        }
    }

    /// What `host`'s robots.txt is in pass `run`: the stored copy and the pass's failed attempts.
    package func hostRobots(host: String, run: Int64, fileName: String) async throws(StoreError) -> HostRobotsView {
        try await read { db in
            var view = HostRobotsView()
            if let row = try Row.fetchOne(
                db, sql: "SELECT * FROM host_file WHERE host = ? AND name = ?", arguments: [host, fileName])
            {
                view.file = Self.hostFile(row, host: host, name: fileName)
            }
            if let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT robots_failures, robots_retry_at, robots_final, robots_detail FROM crawl_host
                    WHERE host = ? AND robots_run = ?
                    """,
                arguments: [host, run])
            {
                view.state = HostRobotsState(
                    host: host, failures: row["robots_failures"], retryAt: row["robots_retry_at"],
                    final: row["robots_final"], detail: row["robots_detail"])
            }
            return view
        }
    }

    static func hostFile(_ row: Row, host: String, name: String) -> HostFile {
        let body: Data? = row["body"]
        return HostFile(
            host: host, name: name, fetchedAt: row["fetched_at"], httpStatus: row["http_status"],
            body: body.map { [UInt8]($0) }, detail: row["detail"])
    }

    /// Moves `host`'s next allowed request to `time` unless it is later already.
    static func setNextRequest(host: String, at time: Double, db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO crawl_host (host, next_request_at) VALUES (?, ?)
                ON CONFLICT (host) DO UPDATE SET next_request_at = max(next_request_at, excluded.next_request_at)
                """
        ).execute(arguments: [host, time])
    }
}
