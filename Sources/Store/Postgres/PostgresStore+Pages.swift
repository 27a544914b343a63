import Foundation
internal import PostgresNIO

extension PostgresStore {
    /// A batch's pages: new and changed ones written whole, unchanged ones touched, gone ones kept (redirects
    /// and canonicals still point at them) but out of the public index. New and changed pages and the
    /// unchanged ones are one statement each (``PostgresColumn``).
    static func writePages(
        _ batch: CrawlBatch, run: Int64, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        try await upsertPages(batch.pages, run: run, connection, logger)
        if !batch.unchangedPages.isEmpty {
            let now = Date().timeIntervalSince1970
            try await connection.rows(
                """
                UPDATE page SET fetched_at = \(now), run_id = \(run), is_gone = FALSE
                WHERE url = ANY(\(batch.unchangedPages)::text[])
                """, logger: logger)
        }
        for page in batch.gonePages {
            try await connection.rows(
                """
                INSERT INTO page (url, final_url, http_status, is_indexable, not_indexed_reason, is_gone,
                                  fetched_at, changed_at, run_id)
                VALUES (\(page.url), \(page.url), \(page.httpStatus), FALSE, 'gone', TRUE, \(page.fetchedAt),
                        \(page.fetchedAt), \(run))
                ON CONFLICT (url) DO UPDATE SET
                    http_status = excluded.http_status, is_indexable = FALSE, not_indexed_reason = 'gone',
                    is_gone = TRUE, item_json = NULL, fetched_at = excluded.fetched_at,
                    changed_at = excluded.changed_at, run_id = excluded.run_id
                """, logger: logger)
        }
    }

    private static func upsertPages(
        _ pages: [StoredPage], run: Int64, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        guard !pages.isEmpty else { return }
        // One row per URL (an upsert may not meet a row twice): the batch's last record of a URL wins.
        var latest: [String: StoredPage] = [:]
        for page in pages { latest[page.url] = page }
        var urls: [String] = [], finals: [String] = [], statuses: [Int] = [], indexable: [Bool] = []
        var links: [String] = [], fetched: [Double] = [], rendered: [Bool] = []
        var canonicals = PostgresColumn<String>(), types = PostgresColumn<String>()
        var reasons = PostgresColumn<String>(), titles = PostgresColumn<String>()
        var items = PostgresColumn<String>(), hashes = PostgresColumn<String>()
        for page in latest.values.sorted(by: { $0.url < $1.url }) {
            urls.append(page.url)
            finals.append(page.finalURL)
            statuses.append(page.httpStatus)
            indexable.append(page.isIndexable)
            links.append(page.links)
            fetched.append(page.fetchedAt)
            rendered.append(page.isRendered)
            canonicals.append(page.canonicalURL)
            types.append(page.contentType)
            reasons.append(page.notIndexedReason)
            titles.append(page.title)
            items.append(page.itemJSON)
            hashes.append(page.contentHash)
        }
        try await connection.rows(
            """
            INSERT INTO page (url, final_url, canonical_url, http_status, content_type, is_indexable,
                              not_indexed_reason, is_gone, title, item_json, links, content_hash,
                              fetched_at, changed_at, run_id, is_rendered)
            SELECT t.url, t.final, CASE WHEN t.canonical_p THEN t.canonical END, t.status,
                   CASE WHEN t.type_p THEN t.type END, t.indexable, CASE WHEN t.reason_p THEN t.reason END, FALSE,
                   CASE WHEN t.title_p THEN t.title END, CASE WHEN t.item_p THEN t.item END, t.links,
                   CASE WHEN t.hash_p THEN t.hash END, t.fetched, t.fetched, \(run), t.rendered
            FROM unnest(
                \(urls)::text[], \(finals)::text[], \(canonicals.values)::text[], \(canonicals.present)::bool[],
                \(statuses)::int8[], \(types.values)::text[], \(types.present)::bool[], \(indexable)::bool[],
                \(reasons.values)::text[], \(reasons.present)::bool[], \(titles.values)::text[],
                \(titles.present)::bool[], \(items.values)::text[], \(items.present)::bool[], \(links)::text[],
                \(hashes.values)::text[], \(hashes.present)::bool[], \(fetched)::float8[], \(rendered)::bool[]
            ) AS t(url, final, canonical, canonical_p, status, type, type_p, indexable, reason, reason_p, title,
                   title_p, item, item_p, links, hash, hash_p, fetched, rendered)
            ON CONFLICT (url) DO UPDATE SET
                final_url = excluded.final_url, canonical_url = excluded.canonical_url,
                http_status = excluded.http_status, content_type = excluded.content_type,
                is_indexable = excluded.is_indexable, not_indexed_reason = excluded.not_indexed_reason,
                is_gone = FALSE, title = excluded.title, item_json = excluded.item_json, links = excluded.links,
                content_hash = excluded.content_hash, fetched_at = excluded.fetched_at,
                changed_at = excluded.changed_at, run_id = excluded.run_id, is_rendered = excluded.is_rendered
            """, logger: logger)
    }
}
