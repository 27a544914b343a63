import Foundation
internal import PostgresNIO

/// A crawl batch written to PostgreSQL in one transaction, with the SQLite store's rules (see
/// `SQLiteStore.commit(_:run:worker:)`): candidates deduplicated on their key, breadth-first depth winning, a
/// re-crawl queueing again what an earlier pass saw; completions guarded by the worker's lease; pending
/// activity pages resolved with the final state of their frontier entry.
extension PostgresStore {
    package func commit(_ batch: CrawlBatch, run: Int64, worker: CrawlWorker?) async throws(StoreError) -> Int {
        guard !batch.isEmpty else { return 0 }
        let logger = logger
        return try await transaction { connection in
            let added = try await Self.insertCandidates(batch.candidates, run: run, connection, logger)
            try await Self.writeCompletions(batch.completions, owner: worker?.owner, connection, logger)
            try await Self.writeHostState(batch, run: run, owner: worker?.owner, connection, logger)
            try await Self.writeUnusablePending(batch.unusablePending, run: run, connection, logger)
            try await Self.writePages(batch, run: run, connection, logger)
            for record in batch.redirects {
                try await connection.rows(
                    """
                    INSERT INTO redirect (from_url, to_url, http_status, run_id)
                    VALUES (\(record.from), \(record.to), \(record.httpStatus), \(run))
                    ON CONFLICT (from_url) DO UPDATE SET
                        to_url = excluded.to_url, http_status = excluded.http_status, run_id = excluded.run_id
                    """, logger: logger)
            }
            try await Self.writeFetchLog(batch.fetchLog, run: run, connection, logger)
            for file in batch.hostFiles {
                try await connection.rows(
                    """
                    INSERT INTO host_file (host, name, fetched_at, http_status, body, detail)
                    VALUES (\(file.host), \(file.name), \(file.fetchedAt), \(file.httpStatus),
                            \(file.body.map { Data($0) }), \(file.detail))
                    ON CONFLICT (host, name) DO UPDATE SET
                        fetched_at = excluded.fetched_at, http_status = excluded.http_status, body = excluded.body,
                        detail = excluded.detail
                    """, logger: logger)
            }
            if let counters = batch.countersJSON, let worker {
                try await connection.rows(
                    """
                    UPDATE crawl_worker SET counters = \(counters), seen_at = \(Date().timeIntervalSince1970)
                    WHERE owner = \(worker.owner)
                    """, logger: logger)
            }
            return added
        }
    }

    private static func insertCandidates(
        _ candidates: [FrontierCandidate], run: Int64, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Int {
        guard !candidates.isEmpty else { return 0 }
        var added = 0
        let dueBefore = try await connection.rows(
            "SELECT due_before FROM crawl_run WHERE id = \(run)", logger: logger
        ).first?.makeRandomAccess().value("due_before", as: Double?.self)
        // In key order, so two workers' commits lock the rows they share in the same order; and only those
        // the upsert may change: an upsert locks the row it meets even when its condition leaves the row
        // alone, and the links every page shares would make all workers' commits wait for each other.
        let settled = try await settledKeys(of: candidates, run: run, dueBefore: dueBefore, connection, logger)
        // The pass's and the candidate's times, named once so ``RefreshRules`` reads them as SQL.
        let requeues = { (row: String) in
            RefreshRules.requeuesEarlier(
                row: row, dueBefore: "(SELECT due_before FROM params)", lastModified: "(SELECT lastmod FROM params)",
                source: "(SELECT source FROM params)")
        }
        for candidate in candidates.sorted(by: { $0.key < $1.key }) {
            if settled.contains(candidate.key) {
                try await keepSitemapLastModified(of: candidate, connection, logger)
                continue
            }
            let isActivity = candidate.source == .activity
            if isActivity {
                // A pending URL keeps the importer's key (see the SQLite store), unless another row has it.
                try await connection.rows(
                    """
                    UPDATE crawl_url SET url_key = \(candidate.key)
                    WHERE url = \(candidate.url) AND url_key IS DISTINCT FROM \(candidate.key)
                      AND NOT EXISTS (SELECT 1 FROM crawl_url WHERE url_key = \(candidate.key))
                    """, logger: logger)
            }
            // PostgreSQL takes one conflict target: the key decides; a row holding the URL under another key
            // (an adopted key) gets the same requeue rule through `other`.
            let count =
                try await connection.rows(
                    """
                    WITH params AS (
                        SELECT \(dueBefore)::float8 AS due_before, \(candidate.sitemapLastModified)::float8 AS lastmod,
                               \(candidate.source.rawValue)::text AS source
                    ), other AS (
                        SELECT id FROM crawl_url WHERE url = \(candidate.url) AND url_key IS DISTINCT FROM \(candidate.key)
                    ), requeued AS (
                        UPDATE crawl_url AS c SET
                            state = 'queued', run_id = \(run), depth = \(candidate.depth), source = \(candidate.source.rawValue),
                            discovered_from = \(candidate.discoveredFrom), redirect_hops = \(candidate.redirectHops),
                            attempts = 0, not_before = 0,
                            sitemap_lastmod = COALESCE((SELECT lastmod FROM params), c.sitemap_lastmod)
                        FROM other WHERE c.id = other.id
                          AND ((c.run_id < \(run) AND \(unescaped: requeues("c")))
                               OR (c.state = 'queued' AND c.run_id = \(run) AND c.depth > \(candidate.depth)))
                        RETURNING 1
                    ), inserted AS (
                        INSERT INTO crawl_url (url, url_key, host, kind, depth, source, discovered_from, redirect_hops,
                                               run_id, state, attempts, not_before, sitemap_lastmod)
                        SELECT \(candidate.url), \(candidate.key), \(candidate.host), \(candidate.kind.rawValue),
                               \(candidate.depth), \(candidate.source.rawValue), \(candidate.discoveredFrom),
                               \(candidate.redirectHops), \(run), 'queued', 0, 0, (SELECT lastmod FROM params)
                        WHERE NOT EXISTS (SELECT 1 FROM other)
                        ON CONFLICT (url_key) DO UPDATE SET
                            state = 'queued', run_id = excluded.run_id, depth = excluded.depth, source = excluded.source,
                            discovered_from = excluded.discovered_from, redirect_hops = excluded.redirect_hops,
                            attempts = 0, not_before = 0,
                            sitemap_lastmod = COALESCE(excluded.sitemap_lastmod, crawl_url.sitemap_lastmod)
                        WHERE (crawl_url.run_id < excluded.run_id AND \(unescaped: requeues("crawl_url")))
                           OR (crawl_url.state = 'queued' AND crawl_url.run_id = excluded.run_id
                               AND crawl_url.depth > excluded.depth)
                        RETURNING 1
                    )
                    SELECT (SELECT COUNT(*) FROM requeued) + (SELECT COUNT(*) FROM inserted) AS n
                    """, logger: logger
                ).first?.makeRandomAccess().value("n", as: Int.self) ?? 0
            added += count
            if count == 0 { try await keepSitemapLastModified(of: candidate, connection, logger) }
            if count == 0, isActivity {
                // Its entry already ended in this pass (found through a link first): the pending row goes.
                try await connection.rows(
                    """
                    DELETE FROM pending_url WHERE url_key = \(candidate.key) AND EXISTS (
                        SELECT 1 FROM crawl_url WHERE url_key = \(candidate.key) AND run_id = \(run) AND state <> 'queued')
                    """, logger: logger)
            }
        }
        return added
    }

    /// Stores what the sitemap says now of a candidate's row that the requeue rule left alone, for the next
    /// refresh.
    private static func keepSitemapLastModified(
        of candidate: FrontierCandidate, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        guard let date = candidate.sitemapLastModified else { return }
        try await connection.rows(
            """
            UPDATE crawl_url SET sitemap_lastmod = \(date)
            WHERE url_key = \(candidate.key) AND sitemap_lastmod IS DISTINCT FROM \(date)
            """, logger: logger)
    }

    /// The keys of `candidates` whose frontier rows the requeue rule leaves alone: queued or seen in pass
    /// `run` already, at a depth no greater; or, in a refresh pass (`dueBefore`), rows of an earlier pass
    /// that are not due (``RefreshRules/leavesEarlier(kind:nextVisitAt:visitedAt:dueBefore:lastModified:)``).
    /// Rows only ever move to later passes and shallower depths, and a pass's start time does not change, so
    /// what this read finds settled stays settled for the transaction.
    private static func settledKeys(
        of candidates: [FrontierCandidate], run: Int64, dueBefore: Double?, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> Set<String> {
        var settled = SettledCandidates(candidates, run: run, dueBefore: dueBefore)
        let keys = settled.keysToRead
        guard !keys.isEmpty else { return [] }
        let rows = try await connection.rows(
            """
            SELECT url_key, run_id, state, depth, kind, next_visit_at, COALESCE(visited_at, fetched_at) AS visited
            FROM crawl_url
            WHERE url_key = ANY(\(keys))
            """,
            logger: logger)
        for row in rows {
            let row = row.makeRandomAccess()
            settled.note(
                key: try row.value("url_key", as: String.self), rowRun: try row.value("run_id", as: Int64.self),
                state: try row.value("state", as: String.self), depth: try row.value("depth", as: Int.self),
                kind: FrontierKind(rawValue: try row.value("kind", as: String.self)) ?? .page,
                nextVisitAt: try row.value("next_visit_at", as: Double?.self),
                visitedAt: try row.value("visited", as: Double?.self))
        }
        return settled.keys
    }

    private static func writeHostState(
        _ batch: CrawlBatch, run: Int64, owner: String?, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        if let owner {
            for lease in batch.releasedHostLeases {
                try await connection.rows(
                    "DELETE FROM host_lease WHERE host = \(lease.host) AND name = \(lease.name) AND owner = \(owner)",
                    logger: logger)
            }
            if !batch.releasedURLs.isEmpty {
                try await connection.rows(
                    """
                    UPDATE crawl_url SET lease_owner = NULL, lease_until = 0
                    WHERE id = ANY(\(batch.releasedURLs)::int8[]) AND lease_owner = \(owner) AND state = 'queued'
                    """, logger: logger)
            }
        }
        for state in batch.robotsStates {
            try await connection.rows(
                """
                INSERT INTO crawl_host (host, robots_run, robots_failures, robots_retry_at, robots_final, robots_detail)
                VALUES (\(state.host), \(run), \(state.failures), \(state.retryAt), \(state.final), \(state.detail))
                ON CONFLICT (host) DO UPDATE SET
                    robots_run = excluded.robots_run, robots_failures = excluded.robots_failures,
                    robots_retry_at = excluded.robots_retry_at, robots_final = excluded.robots_final,
                    robots_detail = excluded.robots_detail
                """, logger: logger)
        }
        for pause in batch.hostPauses {
            try await setNextRequest(host: pause.host, at: pause.until, connection: connection, logger: logger)
        }
    }

    /// Pending URLs that are no crawlable URLs: a skipped entry under their key says why; they leave `pending_url`.
    private static func writeUnusablePending(
        _ unusable: [UnusablePending], run: Int64, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        for entry in unusable {
            let url = String(decoding: entry.pending.url.utf8.prefix(4096), as: UTF8.self)
            try await connection.rows(
                """
                INSERT INTO crawl_url (url, url_key, host, kind, depth, source, run_id, state, outcome, detail)
                VALUES (\(url), \(entry.pending.key), '', 'page', 0, \(DiscoverySource.activity.rawValue), \(run),
                        'skipped', \(entry.outcome.text), \(entry.detail))
                ON CONFLICT DO NOTHING
                """, logger: logger)
            try await connection.rows("DELETE FROM pending_url WHERE url_key = \(entry.pending.key)", logger: logger)
        }
    }
}
