import Foundation
import GRDB

extension SQLiteStore {
    /// Writes `batch` for pass `run` in one transaction and returns how many URLs were new
    /// to the frontier (or requeued from an earlier pass).
    ///
    /// Candidates are deduplicated on their canonical ``FrontierCandidate/key``: one already in
    /// the frontier (under any spelling with that key) is left alone unless it was last queued by
    /// an earlier pass (a re-crawl queues it again) or it is still queued deeper than this path
    /// reaches it (breadth-first depth wins). So no URL is fetched twice in a pass.
    ///
    /// A pending activity URL (`pending_url`) is removed in the transaction that writes the final
    /// state (done, failed, skipped) of its frontier entry, so a kill at any moment loses none.
    ///
    /// A completion ends `worker`'s lease on its URL; one whose lease another worker has taken since (it
    /// ran out) is left to that worker. The batch's host leases, robots.txt states and pauses are
    /// written in the same transaction, so other workers see a host's robots.txt result and the end of
    /// its fetch together.
    package func commit(_ batch: CrawlBatch, run: Int64, worker: CrawlWorker? = nil) async throws(StoreError) -> Int {
        guard !batch.isEmpty else { return 0 }
        return try await write { db in
            let added = try Self.insertCandidates(batch.candidates, run: run, db: db)
            try Self.writeCompletions(batch.completions, owner: worker?.owner, db: db)
            try Self.writeHostState(batch, run: run, owner: worker?.owner, db: db)
            try Self.writeUnusablePending(batch.unusablePending, run: run, db: db)
            try Self.writePages(batch, run: run, db: db)
            let redirect = try db.cachedStatement(
                sql: """
                    INSERT INTO redirect (from_url, to_url, http_status, run_id) VALUES (?, ?, ?, ?)
                    ON CONFLICT(from_url) DO UPDATE SET
                        to_url = excluded.to_url, http_status = excluded.http_status, run_id = excluded.run_id
                    """)
            for record in batch.redirects {
                try redirect.execute(arguments: [record.from, record.to, record.httpStatus, run])
            }
            let log = try db.cachedStatement(
                sql: """
                    INSERT INTO fetch_log (run_id, url, at, http_status, bytes, seconds, outcome, detail)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for entry in batch.fetchLog {
                try log.execute(arguments: [
                    run, entry.url, entry.at, entry.httpStatus, entry.bytes, entry.seconds, entry.outcome.text,
                    entry.detail,
                ])
            }
            let file = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO host_file (host, name, fetched_at, http_status, body, detail)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for hostFile in batch.hostFiles {
                try file.execute(arguments: [
                    hostFile.host, hostFile.name, hostFile.fetchedAt, hostFile.httpStatus,
                    hostFile.body.map { Data($0) }, hostFile.detail,
                ])
            }
            if let counters = batch.countersJSON, let worker {
                try db.cachedStatement(sql: "UPDATE crawl_worker SET counters = ?, seen_at = ? WHERE owner = ?")
                    .execute(arguments: [counters, Date().timeIntervalSince1970, worker.owner])
            }
            return added
        }
    }

    private static func insertCandidates(_ candidates: [FrontierCandidate], run: Int64, db: Database) throws -> Int {
        guard !candidates.isEmpty else { return 0 }
        // The key decides (first clause). The second clause only meets rows keyed NULL by the
        // v3 backfill (an older spelling of a key another row holds): the same rule applies to them.
        // A row of an earlier pass is queued again under ``RefreshRules`` (always, in a full pass).
        let requeue = """
            DO UPDATE SET
                state = 'queued', run_id = excluded.run_id, depth = excluded.depth,
                source = excluded.source, discovered_from = excluded.discovered_from,
                redirect_hops = excluded.redirect_hops, attempts = 0, not_before = 0,
                sitemap_lastmod = COALESCE(excluded.sitemap_lastmod, crawl_url.sitemap_lastmod)
            WHERE (crawl_url.run_id < excluded.run_id
                   AND \(RefreshRules.requeuesEarlier(row: "crawl_url", dueBefore: "?11", lastModified: "?10", source: "?6")))
               OR (crawl_url.state = 'queued' AND crawl_url.run_id = excluded.run_id
                   AND crawl_url.depth > excluded.depth)
            """
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO crawl_url (url, url_key, host, kind, depth, source, discovered_from, redirect_hops,
                                       run_id, state, attempts, not_before, sitemap_lastmod)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'queued', 0, 0, ?10)
                ON CONFLICT(url_key) \(requeue)
                ON CONFLICT(url) \(requeue)
                """)
        let dueBefore = try Double.fetchOne(
            db.cachedStatement(sql: "SELECT due_before FROM crawl_run WHERE id = ?"), arguments: [run])
        // What the sitemap says now is kept with a row the rule left alone too, for the next refresh.
        let lastModified = try db.cachedStatement(
            sql: "UPDATE crawl_url SET sitemap_lastmod = ?1 WHERE url_key = ?2 AND sitemap_lastmod IS NOT ?1")
        // A pending URL keeps the importer's key, which the bridge looks its crawl state up by: should
        // the row of its URL carry another key (the two spellings normalize alike but key apart), the
        // row takes the importer's.
        let adoptKey = try db.cachedStatement(
            sql: "UPDATE OR IGNORE crawl_url SET url_key = ?1 WHERE url = ?2 AND url_key IS NOT ?1")
        // A pending URL whose entry already ended in this pass (found through a link before it
        // was added) is verified: its pending row goes.
        let verified = try db.cachedStatement(
            sql: """
                DELETE FROM pending_url WHERE url_key = ? AND EXISTS (
                    SELECT 1 FROM crawl_url WHERE url_key = ? AND run_id = ? AND state != 'queued')
                """)
        // A refresh pass reads first which rows stay as they are (most of a changed page's links).
        let settled = try dueBefore.map { try settledKeys(of: candidates, run: run, dueBefore: $0, db: db) } ?? []
        var added = 0
        for candidate in candidates {
            if settled.contains(candidate.key) {
                if let date = candidate.sitemapLastModified {
                    try lastModified.execute(arguments: [date, candidate.key])
                }
                continue
            }
            if candidate.source == .activity {
                try adoptKey.execute(arguments: [candidate.key, candidate.url])
            }
            try statement.execute(arguments: [
                candidate.url, candidate.key, candidate.host, candidate.kind.rawValue, candidate.depth,
                candidate.source.rawValue, candidate.discoveredFrom, candidate.redirectHops, run,
                candidate.sitemapLastModified, dueBefore,
            ])
            let changes = db.changesCount
            added += changes
            if changes == 0, let date = candidate.sitemapLastModified {
                try lastModified.execute(arguments: [date, candidate.key])
            }
            if changes == 0, candidate.source == .activity {
                try verified.execute(arguments: [candidate.key, candidate.key, run])
            }
        }
        return added
    }

    private static func writeCompletions(_ completions: [CrawlBatch.Completion], owner: String?, db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                UPDATE crawl_url SET state = ?, outcome = ?, http_status = ?, detail = ?,
                    etag = CASE WHEN ? THEN ? ELSE COALESCE(?, etag) END,
                    last_modified = CASE WHEN ? THEN ? ELSE COALESCE(?, last_modified) END,
                    content_hash = COALESCE(?, content_hash), attempts = ?, not_before = ?,
                    fetched_at = COALESCE(?, fetched_at), next_visit_at = COALESCE(?, next_visit_at),
                    revisit_interval = COALESCE(?, revisit_interval), visited_at = COALESCE(?, visited_at),
                    lease_owner = NULL, lease_until = 0
                WHERE id = ? AND (? IS NULL OR lease_owner IS NULL OR lease_owner = ?)
                """)
        // One check per transaction spares a crawl with no pending URLs a statement per URL.
        let anyPending =
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM pending_url)")) ?? false
        let resolve = try db.cachedStatement(
            sql: "DELETE FROM pending_url WHERE url_key = (SELECT url_key FROM crawl_url WHERE id = ?)")
        for completion in completions {
            try statement.execute(arguments: [
                completion.state.rawValue, completion.outcome.text, completion.httpStatus, completion.detail,
                completion.validatorsReplaced, completion.etag, completion.etag, completion.validatorsReplaced,
                completion.lastModified, completion.lastModified, completion.contentHash, completion.attempts,
                completion.notBefore, completion.fetchedAt, completion.nextVisitAt, completion.revisitInterval,
                completion.visitedAt, completion.id, owner, owner,
            ])
            if anyPending, completion.state != .queued {
                try resolve.execute(arguments: [completion.id])
            }
        }
    }

    /// The batch's host leases given back, robots.txt states and pauses.
    private static func writeHostState(_ batch: CrawlBatch, run: Int64, owner: String?, db: Database) throws {
        if let owner, !batch.releasedHostLeases.isEmpty {
            let release = try db.cachedStatement(
                sql: "DELETE FROM host_lease WHERE host = ? AND name = ? AND owner = ?")
            for lease in batch.releasedHostLeases {
                try release.execute(arguments: [lease.host, lease.name, owner])
            }
        }
        if let owner, !batch.releasedURLs.isEmpty {
            let release = try db.cachedStatement(
                sql: """
                    UPDATE crawl_url SET lease_owner = NULL, lease_until = 0
                    WHERE id = ? AND lease_owner = ? AND state = 'queued'
                    """)
            for id in batch.releasedURLs {
                try release.execute(arguments: [id, owner])
            }
        }
        let robots = try db.cachedStatement(
            sql: """
                INSERT INTO crawl_host (host, robots_run, robots_failures, robots_retry_at, robots_final, robots_detail)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (host) DO UPDATE SET
                    robots_run = excluded.robots_run, robots_failures = excluded.robots_failures,
                    robots_retry_at = excluded.robots_retry_at, robots_final = excluded.robots_final,
                    robots_detail = excluded.robots_detail
                """)
        for state in batch.robotsStates {
            try robots.execute(arguments: [
                state.host, run, state.failures, state.retryAt, state.final, state.detail,
            ])
        }
        for pause in batch.hostPauses {
            try setNextRequest(host: pause.host, at: pause.until, db: db)
        }
    }

    /// Pending URLs that are not crawlable URLs at all: a skipped frontier entry under their key
    /// says why (for the bridge), and they leave `pending_url`.
    private static func writeUnusablePending(_ unusable: [UnusablePending], run: Int64, db: Database) throws {
        guard !unusable.isEmpty else { return }
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO crawl_url (url, url_key, host, kind, depth, source, run_id, state, outcome, detail)
                VALUES (?, ?, '', 'page', 0, ?, ?, 'skipped', ?, ?)
                ON CONFLICT DO NOTHING
                """)
        let remove = try db.cachedStatement(sql: "DELETE FROM pending_url WHERE url_key = ?")
        for entry in unusable {
            // The URL column holds at most 4 KiB of it (the key, written by the importer, is kept whole).
            let url = String(decoding: entry.pending.url.utf8.prefix(4096), as: UTF8.self)
            try insert.execute(arguments: [
                url, entry.pending.key, DiscoverySource.activity.rawValue, run, entry.outcome.text, entry.detail,
            ])
            try remove.execute(arguments: [entry.pending.key])
        }
    }

    private static func writePages(_ batch: CrawlBatch, run: Int64, db: Database) throws {
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO page (url, final_url, canonical_url, http_status, content_type, is_indexable,
                                  not_indexed_reason, is_gone, title, item_json, links, content_hash,
                                  fetched_at, changed_at, run_id, is_rendered)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(url) DO UPDATE SET
                    final_url = excluded.final_url, canonical_url = excluded.canonical_url,
                    http_status = excluded.http_status, content_type = excluded.content_type,
                    is_indexable = excluded.is_indexable, not_indexed_reason = excluded.not_indexed_reason,
                    is_gone = 0, title = excluded.title, item_json = excluded.item_json, links = excluded.links,
                    content_hash = excluded.content_hash, fetched_at = excluded.fetched_at,
                    changed_at = excluded.changed_at, run_id = excluded.run_id, is_rendered = excluded.is_rendered
                """)
        for page in batch.pages {
            try upsert.execute(arguments: [
                page.url, page.finalURL, page.canonicalURL, page.httpStatus, page.contentType, page.isIndexable,
                page.notIndexedReason, page.title, page.itemJSON, page.links, page.contentHash, page.fetchedAt,
                page.fetchedAt, run, page.isRendered,
            ])
        }
        let touch = try db.cachedStatement(
            sql: "UPDATE page SET fetched_at = ?, run_id = ?, is_gone = 0 WHERE url = ?")
        let now = Date().timeIntervalSince1970
        for url in batch.unchangedPages {
            try touch.execute(arguments: [now, run, url])
        }
        // A gone page keeps its row (redirects and canonicals still point at it) but
        // leaves the public index: not indexable, marked gone.
        let gone = try db.cachedStatement(
            sql: """
                INSERT INTO page (url, final_url, http_status, is_indexable, not_indexed_reason, is_gone,
                                  fetched_at, changed_at, run_id)
                VALUES (?, ?, ?, 0, 'gone', 1, ?, ?, ?)
                ON CONFLICT(url) DO UPDATE SET
                    http_status = excluded.http_status, is_indexable = 0, not_indexed_reason = 'gone',
                    is_gone = 1, item_json = NULL, fetched_at = excluded.fetched_at,
                    changed_at = excluded.changed_at, run_id = excluded.run_id
                """)
        for page in batch.gonePages {
            try gone.execute(arguments: [page.url, page.url, page.httpStatus, page.fetchedAt, page.fetchedAt, run])
        }
    }
}
