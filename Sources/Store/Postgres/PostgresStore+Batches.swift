internal import PostgresNIO

/// The many-row parts of a crawl batch — completions, fetch-log lines, pages — each written with one
/// statement over `unnest`ed arrays (``PostgresColumn``): on PostgreSQL every statement is a round trip,
/// and one per row cost more CPU than the crawl itself.
extension PostgresStore {
    /// Ends the batch's frontier URLs (see the SQLite store: the lease guard, the validators kept when a
    /// completion has none) and resolves the pending activity pages of those that ended.
    static func writeCompletions(
        _ completions: [CrawlBatch.Completion], owner: String?, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        guard !completions.isEmpty else { return }
        // One row per URL: a later completion of the same URL in a batch wins, as row by row it would.
        var latest: [Int64: CrawlBatch.Completion] = [:]
        for completion in completions { latest[completion.id] = completion }
        var ids: [Int64] = [], states: [String] = [], outcomes: [String] = [], attempts: [Int] = []
        var notBefore: [Double] = [], replaced: [Bool] = []
        var statuses = PostgresColumn<Int>(), details = PostgresColumn<String>(), etags = PostgresColumn<String>()
        var modified = PostgresColumn<String>(), hashes = PostgresColumn<String>(), fetched = PostgresColumn<Double>()
        var nextVisits = PostgresColumn<Double>(), intervals = PostgresColumn<Double>()
        var visits = PostgresColumn<Double>()
        for completion in latest.values.sorted(by: { $0.id < $1.id }) {
            ids.append(completion.id)
            states.append(completion.state.rawValue)
            outcomes.append(completion.outcome.text)
            attempts.append(completion.attempts)
            notBefore.append(completion.notBefore)
            statuses.append(completion.httpStatus)
            details.append(completion.detail)
            etags.append(completion.etag)
            replaced.append(completion.validatorsReplaced)
            modified.append(completion.lastModified)
            hashes.append(completion.contentHash)
            fetched.append(completion.fetchedAt)
            nextVisits.append(completion.nextVisitAt)
            intervals.append(completion.revisitInterval)
            visits.append(completion.visitedAt)
        }
        try await connection.rows(
            """
            UPDATE crawl_url AS c SET
                state = t.state, outcome = t.outcome,
                http_status = CASE WHEN t.status_p THEN t.status END,
                detail = CASE WHEN t.detail_p THEN t.detail END,
                etag = CASE WHEN t.replaced THEN CASE WHEN t.etag_p THEN t.etag END
                            ELSE COALESCE(CASE WHEN t.etag_p THEN t.etag END, c.etag) END,
                last_modified = CASE WHEN t.replaced THEN CASE WHEN t.modified_p THEN t.modified END
                                     ELSE COALESCE(CASE WHEN t.modified_p THEN t.modified END, c.last_modified) END,
                content_hash = COALESCE(CASE WHEN t.hash_p THEN t.hash END, c.content_hash),
                attempts = t.attempts, not_before = t.not_before,
                fetched_at = COALESCE(CASE WHEN t.fetched_p THEN t.fetched END, c.fetched_at),
                next_visit_at = COALESCE(CASE WHEN t.next_visit_p THEN t.next_visit END, c.next_visit_at),
                revisit_interval = COALESCE(CASE WHEN t.revisit_p THEN t.revisit END, c.revisit_interval),
                visited_at = COALESCE(CASE WHEN t.visited_p THEN t.visited END, c.visited_at),
                lease_owner = NULL, lease_until = 0
            FROM unnest(
                \(ids)::int8[], \(states)::text[], \(outcomes)::text[], \(attempts)::int8[], \(notBefore)::float8[],
                \(statuses.values)::int8[], \(statuses.present)::bool[], \(details.values)::text[],
                \(details.present)::bool[], \(etags.values)::text[], \(etags.present)::bool[],
                \(modified.values)::text[], \(modified.present)::bool[], \(hashes.values)::text[],
                \(hashes.present)::bool[], \(fetched.values)::float8[], \(fetched.present)::bool[],
                \(nextVisits.values)::float8[], \(nextVisits.present)::bool[], \(intervals.values)::float8[],
                \(intervals.present)::bool[], \(visits.values)::float8[], \(visits.present)::bool[],
                \(replaced)::bool[]
            ) AS t(id, state, outcome, attempts, not_before, status, status_p, detail, detail_p, etag, etag_p,
                   modified, modified_p, hash, hash_p, fetched, fetched_p, next_visit, next_visit_p, revisit,
                   revisit_p, visited, visited_p, replaced)
            WHERE c.id = t.id AND (\(owner)::text IS NULL OR c.lease_owner IS NULL OR c.lease_owner = \(owner))
            """, logger: logger)
        let ended = latest.values.filter { $0.state != .queued }.map(\.id)
        if !ended.isEmpty {
            try await connection.rows(
                """
                DELETE FROM pending_url
                WHERE url_key IN (SELECT url_key FROM crawl_url WHERE id = ANY(\(ended)::int8[]))
                """, logger: logger)
        }
    }

    /// The batch's fetch-log lines.
    static func writeFetchLog(
        _ entries: [FetchLogEntry], run: Int64, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        guard !entries.isEmpty else { return }
        var urls: [String] = [], times: [Double] = [], bytes: [Int] = [], seconds: [Double] = []
        var outcomes: [String] = []
        var statuses = PostgresColumn<Int>(), details = PostgresColumn<String>()
        for entry in entries {
            urls.append(entry.url)
            times.append(entry.at)
            bytes.append(entry.bytes)
            seconds.append(entry.seconds)
            outcomes.append(entry.outcome.text)
            statuses.append(entry.httpStatus)
            details.append(entry.detail)
        }
        try await connection.rows(
            """
            INSERT INTO fetch_log (run_id, url, at, http_status, bytes, seconds, outcome, detail)
            SELECT \(run), t.url, t.at, CASE WHEN t.status_p THEN t.status END, t.bytes, t.seconds, t.outcome,
                   CASE WHEN t.detail_p THEN t.detail END
            FROM unnest(
                \(urls)::text[], \(times)::float8[], \(statuses.values)::int8[], \(statuses.present)::bool[],
                \(bytes)::int8[], \(seconds)::float8[], \(outcomes)::text[], \(details.values)::text[],
                \(details.present)::bool[]
            ) WITH ORDINALITY AS t(url, at, status, status_p, bytes, seconds, outcome, detail, detail_p, n)
            ORDER BY t.n
            """, logger: logger)
    }
}
