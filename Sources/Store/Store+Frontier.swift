import Foundation
import GRDB

/// A crawl pass: new, or the unfinished one a rerun continues.
public struct CrawlRunInfo: Sendable, Hashable {
    /// The pass's id.
    public var id: Int64
    /// Whether an unfinished pass was resumed rather than a new one started.
    public var isResumed: Bool
    /// The counters stored at the pass's last commit (`{}` for a new pass).
    public var countersJSON: String
    /// The seeds the pass was started with (a resumed pass keeps its original scope).
    public var seeds: [String]
}

extension Store {
    /// Resumes the unfinished pass if there is one, else starts a new one.
    ///
    /// URLs of an unfinished pass that were in flight when the process died are still
    /// `queued` (a URL leaves that state only in the transaction that stores its result),
    /// so resuming is just continuing to take due URLs of the same pass.
    public func beginRun(seeds: [String], now: Double) async throws(StoreError) -> CrawlRunInfo {
        let seedsJSON = String(decoding: (try? JSONEncoder().encode(seeds)) ?? Data("[]".utf8), as: UTF8.self)
        return try await write { db in
            if let row = try Row.fetchOne(
                db,
                sql: "SELECT id, counters, seeds FROM crawl_run WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1")
            {
                let stored = (row["seeds"] as String?).flatMap {
                    try? JSONDecoder().decode([String].self, from: Data($0.utf8))
                }
                return CrawlRunInfo(
                    id: row["id"], isResumed: true, countersJSON: row["counters"], seeds: stored ?? [])
            }
            try db.execute(
                sql: "INSERT INTO crawl_run (started_at, seeds) VALUES (?, ?)", arguments: [now, seedsJSON])
            return CrawlRunInfo(id: db.lastInsertedRowID, isResumed: false, countersJSON: "{}", seeds: seeds)
        }
    }

    /// Marks the pass finished: the next `crawl` starts a new pass (a re-crawl).
    public func finishRun(_ id: Int64, countersJSON: String, now: Double) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE crawl_run SET finished_at = ?, counters = ? WHERE id = ?",
                arguments: [now, countersJSON, id])
        }
    }

    /// The hosts with URLs queued in pass `run`, each with the earliest time one is due.
    public func queuedHosts(run: Int64) async throws(StoreError) -> [(host: String, due: Double)] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT host, MIN(not_before) AS due FROM crawl_url
                    WHERE run_id = ? AND state = 'queued' GROUP BY host
                    """,
                arguments: [run]
            ).map { (host: $0["host"] as String, due: $0["due"] as Double) }
        }
    }

    /// Up to `limit` URLs of `host` due at `now` in pass `run`, sitemaps first, then by
    /// depth (breadth-first) and discovery order; ids in `excluding` (in flight or
    /// already buffered) are left out.
    public func dueURLs(
        run: Int64, host: String, now: Double, limit: Int, excluding: Set<Int64>
    ) async throws(StoreError) -> [FrontierURL] {
        try await read { db in
            // One indexed range per kind (sitemaps first), ordered as the index is (depth, id), and
            // the page lookup only for the rows kept: the sort never touches the rest of the queue.
            var rows: [Row] = []
            for kind in [FrontierKind.sitemap, .page] {
                let wanted = limit + excluding.count - rows.count
                guard wanted > 0 else { break }
                rows += try Row.fetchAll(
                    db,
                    sql: """
                        SELECT c.id, c.url, c.host, c.kind, c.depth, c.redirect_hops, c.source, c.attempts,
                               c.etag, c.last_modified, c.content_hash, p.links, p.is_indexable
                        FROM (SELECT * FROM crawl_url
                              WHERE run_id = ? AND state = 'queued' AND host = ? AND kind = ? AND not_before <= ?
                              ORDER BY depth, id LIMIT ?) AS c
                        LEFT JOIN page p ON p.url = c.url
                        ORDER BY c.depth, c.id
                        """,
                    arguments: [run, host, kind.rawValue, now, wanted])
            }
            var urls: [FrontierURL] = []
            for row in rows {
                let id: Int64 = row["id"]
                guard !excluding.contains(id), urls.count < limit else { continue }
                urls.append(
                    FrontierURL(
                        id: id, url: row["url"], host: row["host"],
                        kind: FrontierKind(rawValue: row["kind"]) ?? .page,
                        depth: row["depth"], redirectHops: row["redirect_hops"], source: row["source"],
                        attempts: row["attempts"],
                        etag: row["etag"], lastModified: row["last_modified"], contentHash: row["content_hash"],
                        storedLinks: row["links"], wasIndexable: row["is_indexable"]))
            }
            return urls
        }
    }

    /// The stored copy of a per-host file, if any.
    public func hostFile(host: String, name: String) async throws(StoreError) -> HostFile? {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM host_file WHERE host = ? AND name = ?", arguments: [host, name])
            else { return nil }
            let body: Data? = row["body"]
            return HostFile(
                host: host, name: name, fetchedAt: row["fetched_at"], httpStatus: row["http_status"],
                body: body.map { [UInt8]($0) }, detail: row["detail"])
        }
    }
}

extension Store {
    /// URLs still queued in pass `run`.
    public func queuedCount(run: Int64) async throws(StoreError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM crawl_url WHERE run_id = ? AND state = 'queued'", arguments: [run]) ?? 0
        }
    }
}
