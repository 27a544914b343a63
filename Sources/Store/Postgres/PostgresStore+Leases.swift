internal import PostgresNIO

/// Frontier leases and the hosts' shared politeness on PostgreSQL. URLs are claimed with
/// `FOR UPDATE SKIP LOCKED`, so workers on many machines take disjoint URLs without waiting for each
/// other; a host's slots and once-per-pass tasks are decided under a lock on the host's `crawl_host`
/// row, so the per-host cap and the delay hold across all workers.
extension PostgresStore {
    package func claimURLs(
        run: Int64, host: String, worker: CrawlWorker, now: Double, leaseUntil: Double, limit: Int
    ) async throws(StoreError) -> [FrontierURL] {
        let logger = logger
        return try await transaction { connection in
            var claimed: [FrontierURL] = []
            for kind in [FrontierKind.sitemap, .page] {
                let wanted = limit - claimed.count
                guard wanted > 0 else { break }
                let rows = try await connection.rows(
                    """
                    WITH due AS (
                        SELECT id FROM crawl_url
                        WHERE run_id = \(run) AND state = 'queued' AND host = \(host) AND kind = \(kind.rawValue)
                          AND not_before <= \(now) AND lease_until <= \(now)
                        ORDER BY depth, id LIMIT \(wanted)
                        FOR UPDATE SKIP LOCKED
                    ), taken AS (
                        UPDATE crawl_url AS c SET lease_owner = \(worker.owner), lease_until = \(leaseUntil)
                        FROM due WHERE c.id = due.id
                        RETURNING c.id, c.url, c.host, c.kind, c.depth, c.redirect_hops, c.source, c.attempts,
                                  c.etag, c.last_modified, c.content_hash, c.revisit_interval, c.url_key
                    )
                    SELECT taken.*, p.links, p.is_indexable,
                           CASE WHEN taken.source = \(DiscoverySource.activity.rawValue) THEN (
                               SELECT string_agg(DISTINCT a.bundle, E'\\n') FROM activity AS a WHERE a.url_key = taken.url_key)
                           END AS apps
                    FROM taken LEFT JOIN page p ON p.url = taken.url
                    ORDER BY taken.depth, taken.id
                    """, logger: logger)
                for row in rows {
                    let row = row.makeRandomAccess()
                    claimed.append(
                        FrontierURL(
                            id: try row.value("id"), url: try row.value("url"), host: try row.value("host"),
                            kind: FrontierKind(rawValue: try row.value("kind")) ?? .page,
                            depth: try row.value("depth"), redirectHops: try row.value("redirect_hops"),
                            source: DiscoverySource(stored: try row.value("source")),
                            attempts: try row.value("attempts"),
                            etag: try row.value("etag"), lastModified: try row.value("last_modified"),
                            contentHash: try row.value("content_hash"), storedLinks: try row.value("links"),
                            wasIndexable: try row.value("is_indexable"),
                            revisitInterval: try row.value("revisit_interval"),
                            donatingApps: CrawlLeaseRules.lines(try row.value("apps", as: String?.self))))
                }
            }
            return claimed
        }
    }

    package func claimHostSlot(
        host: String, run: Int64, worker: CrawlWorker, now: Double, slots: Int, spacing: Double,
        leaseUntil: Double, reusing: Int?
    ) async throws(StoreError) -> HostSlotClaim {
        let logger = logger
        return try await transaction { connection in
            let next = try await Self.lockHost(host, connection: connection, logger: logger)
            if next > now { return .wait(until: next) }
            var taken: [Int: HostSlotRule.Holder] = [:]
            for row in try await connection.rows(
                "SELECT name, owner, until FROM host_lease WHERE host = \(host) AND name LIKE 'slot:%'", logger: logger)
            {
                let row = row.makeRandomAccess()
                guard let slot = HostSlotRule.slot(named: try row.value("name")) else { continue }
                taken[slot] = HostSlotRule.Holder(owner: try row.value("owner"), until: try row.value("until"))
            }
            let live = try await connection.rows(
                """
                SELECT COUNT(*) AS n FROM crawl_worker
                WHERE run_id = \(run) AND ended_at IS NULL AND seen_at >= \(now - (leaseUntil - now))
                """, logger: logger
            ).first?.makeRandomAccess().value("n", as: Int.self)
            let rule = HostSlotRule(slots: slots, liveWorkers: live ?? 1)
            switch rule.decide(taken: taken, owner: worker.owner, reusing: reusing, now: now) {
            case .full:
                return .full(until: now + CrawlLeaseRules.slotPollInterval)
            case .giveBack(let slot):
                try await connection.rows(
                    "DELETE FROM host_lease WHERE host = \(host) AND name = \(HostSlotRule.name(of: slot))",
                    logger: logger)
                return .full(until: now + CrawlLeaseRules.slotPollInterval)
            case .use(let slot):
                try await connection.rows(
                    """
                    INSERT INTO host_lease (host, name, owner, until)
                    VALUES (\(host), \(HostSlotRule.name(of: slot)), \(worker.owner), \(leaseUntil))
                    ON CONFLICT (host, name) DO UPDATE SET owner = excluded.owner, until = excluded.until
                    """, logger: logger)
                try await Self.setNextRequest(host: host, at: now + spacing, connection: connection, logger: logger)
                return .granted(slot: slot)
            }
        }
    }

    package func claimHostTask(
        host: String, name: String, worker: CrawlWorker, now: Double, leaseUntil: Double, spacing: Double?,
        storedSince: Double, run: Int64
    ) async throws(StoreError) -> HostTaskClaim {
        let logger = logger
        return try await transaction { connection in
            let next = try await Self.lockHost(host, connection: connection, logger: logger)
            // The lease first, then the file: each statement sees what was committed when it began, and the
            // holder stores the file and ends its lease in one commit. Checked the other way round, that
            // commit could land between the two reads (no file yet, no lease any more) and the file was
            // fetched twice.
            let held = try await connection.rows(
                """
                SELECT 1 FROM host_lease
                WHERE host = \(host) AND name = \(name) AND until > \(now) AND owner <> \(worker.owner)
                """, logger: logger)
            guard held.isEmpty else { return .wait(until: now + CrawlLeaseRules.taskPollInterval) }
            if let fetchedAt = try await connection.rows(
                "SELECT fetched_at FROM host_file WHERE host = \(host) AND name = \(name)", logger: logger
            ).first?.makeRandomAccess().value("fetched_at", as: Double.self), fetchedAt >= storedSince {
                return .wait(until: now)
            }
            if name == CrawlLeaseRules.robotsFileName,
                let row = try await connection.rows(
                    "SELECT robots_final, robots_retry_at FROM crawl_host WHERE host = \(host) AND robots_run = \(run)",
                    logger: logger
                ).first?.makeRandomAccess(),
                try row.value("robots_final", as: String?.self) != nil
                    || row.value("robots_retry_at", as: Double.self) > now
            {
                return .wait(until: now)
            }
            if let spacing {
                if next > now { return .wait(until: next) }
                try await Self.setNextRequest(host: host, at: now + spacing, connection: connection, logger: logger)
            }
            try await connection.rows(
                """
                INSERT INTO host_lease (host, name, owner, until) VALUES (\(host), \(name), \(worker.owner), \(leaseUntil))
                ON CONFLICT (host, name) DO UPDATE SET owner = excluded.owner, until = excluded.until
                """, logger: logger)
            return .claimed
        }
    }

    package func hostRobots(host: String, run: Int64, fileName: String) async throws(StoreError) -> HostRobotsView {
        var view = HostRobotsView()
        view.file = try await hostFile(host: host, name: fileName)
        let found = try await records(
            """
            SELECT robots_failures, robots_retry_at, robots_final, robots_detail FROM crawl_host
            WHERE host = \(host) AND robots_run = \(run)
            """)
        do {
            if let row = found.first?.makeRandomAccess() {
                view.state = HostRobotsState(
                    host: host, failures: try row.value("robots_failures"), retryAt: try row.value("robots_retry_at"),
                    final: try row.value("robots_final"), detail: try row.value("robots_detail"))
            }
        } catch {
            throw storeError(error)
        }
        return view
    }

    /// Creates `host`'s `crawl_host` row if needed and locks it for the transaction: the slot and task
    /// decisions for one host are taken one at a time, by whichever worker and machine. Returns when the
    /// host's next request may start.
    static func lockHost(_ host: String, connection: PostgresConnection, logger: Logger) async throws -> Double {
        try await connection.rows(
            "INSERT INTO crawl_host (host) VALUES (\(host)) ON CONFLICT (host) DO NOTHING", logger: logger)
        return try await connection.rows(
            "SELECT next_request_at FROM crawl_host WHERE host = \(host) FOR UPDATE", logger: logger
        ).first?.makeRandomAccess().value("next_request_at", as: Double.self) ?? 0
    }

    /// Moves `host`'s next allowed request to `time` unless it is later already.
    static func setNextRequest(
        host: String, at time: Double, connection: PostgresConnection, logger: Logger
    ) async throws {
        try await connection.rows(
            """
            INSERT INTO crawl_host (host, next_request_at) VALUES (\(host), \(time))
            ON CONFLICT (host) DO UPDATE
            SET next_request_at = GREATEST(crawl_host.next_request_at, excluded.next_request_at)
            """, logger: logger)
    }
}
