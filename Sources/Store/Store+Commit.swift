import Foundation
import GRDB

extension Store {
    /// Writes `batch` for pass `run` in one transaction and returns how many URLs were new
    /// to the frontier (or requeued from an earlier pass).
    ///
    /// A candidate already in the frontier is left alone unless it was last queued by an
    /// earlier pass (a re-crawl queues it again) or it is still queued deeper than this
    /// path reaches it (breadth-first depth wins). So no URL is fetched twice in a pass.
    public func commit(_ batch: CrawlBatch, run: Int64) async throws(StoreError) -> Int {
        guard !batch.isEmpty else { return 0 }
        return try await write { db in
            let added = try Self.insertCandidates(batch.candidates, run: run, db: db)
            try Self.writeCompletions(batch.completions, db: db)
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
                    run, entry.url, entry.at, entry.httpStatus, entry.bytes, entry.seconds, entry.outcome, entry.detail,
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
            if let counters = batch.countersJSON {
                try db.execute(sql: "UPDATE crawl_run SET counters = ? WHERE id = ?", arguments: [counters, run])
            }
            return added
        }
    }

    private static func insertCandidates(_ candidates: [FrontierCandidate], run: Int64, db: Database) throws -> Int {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO crawl_url (url, host, kind, depth, source, discovered_from, redirect_hops,
                                       run_id, state, attempts, not_before)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, 0)
                ON CONFLICT(url) DO UPDATE SET
                    state = 'queued', run_id = excluded.run_id, depth = excluded.depth,
                    source = excluded.source, discovered_from = excluded.discovered_from,
                    redirect_hops = excluded.redirect_hops, attempts = 0, not_before = 0
                WHERE crawl_url.run_id < excluded.run_id
                   OR (crawl_url.state = 'queued' AND crawl_url.run_id = excluded.run_id
                       AND crawl_url.depth > excluded.depth)
                """)
        var added = 0
        for candidate in candidates {
            try statement.execute(arguments: [
                candidate.url, candidate.host, candidate.kind.rawValue, candidate.depth, candidate.source,
                candidate.discoveredFrom, candidate.redirectHops, run,
            ])
            added += db.changesCount
        }
        return added
    }

    private static func writeCompletions(_ completions: [CrawlBatch.Completion], db: Database) throws {
        let statement = try db.cachedStatement(
            sql: """
                UPDATE crawl_url SET state = ?, outcome = ?, http_status = ?, detail = ?,
                    etag = COALESCE(?, etag), last_modified = COALESCE(?, last_modified),
                    content_hash = COALESCE(?, content_hash), attempts = ?, not_before = ?,
                    fetched_at = COALESCE(?, fetched_at)
                WHERE id = ?
                """)
        for completion in completions {
            try statement.execute(arguments: [
                completion.state.rawValue, completion.outcome, completion.httpStatus, completion.detail,
                completion.etag, completion.lastModified, completion.contentHash, completion.attempts,
                completion.notBefore, completion.fetchedAt, completion.id,
            ])
        }
    }

    private static func writePages(_ batch: CrawlBatch, run: Int64, db: Database) throws {
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO page (url, final_url, canonical_url, http_status, content_type, is_indexable,
                                  not_indexed_reason, is_gone, title, item_json, links, content_hash,
                                  fetched_at, changed_at, run_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(url) DO UPDATE SET
                    final_url = excluded.final_url, canonical_url = excluded.canonical_url,
                    http_status = excluded.http_status, content_type = excluded.content_type,
                    is_indexable = excluded.is_indexable, not_indexed_reason = excluded.not_indexed_reason,
                    is_gone = 0, title = excluded.title, item_json = excluded.item_json, links = excluded.links,
                    content_hash = excluded.content_hash, fetched_at = excluded.fetched_at,
                    changed_at = excluded.changed_at, run_id = excluded.run_id
                """)
        for page in batch.pages {
            try upsert.execute(arguments: [
                page.url, page.finalURL, page.canonicalURL, page.httpStatus, page.contentType, page.isIndexable,
                page.notIndexedReason, page.title, page.itemJSON, page.links, page.contentHash, page.fetchedAt,
                page.fetchedAt, run,
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
