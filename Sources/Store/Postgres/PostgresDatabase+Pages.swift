import Foundation
internal import PostgresNIO

extension PostgresDatabase {
    /// A batch's pages: new and changed ones written whole, unchanged ones touched, gone ones kept (redirects
    /// and canonicals still point at them) but out of the public index.
    static func writePages(
        _ batch: CrawlBatch, run: Int64, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        for page in batch.pages {
            try await connection.rows(
                """
                INSERT INTO page (url, final_url, canonical_url, http_status, content_type, is_indexable,
                                  not_indexed_reason, is_gone, title, item_json, links, content_hash,
                                  fetched_at, changed_at, run_id)
                VALUES (\(page.url), \(page.finalURL), \(page.canonicalURL), \(page.httpStatus), \(page.contentType),
                        \(page.isIndexable), \(page.notIndexedReason), FALSE, \(page.title), \(page.itemJSON),
                        \(page.links), \(page.contentHash), \(page.fetchedAt), \(page.fetchedAt), \(run))
                ON CONFLICT (url) DO UPDATE SET
                    final_url = excluded.final_url, canonical_url = excluded.canonical_url,
                    http_status = excluded.http_status, content_type = excluded.content_type,
                    is_indexable = excluded.is_indexable, not_indexed_reason = excluded.not_indexed_reason,
                    is_gone = FALSE, title = excluded.title, item_json = excluded.item_json, links = excluded.links,
                    content_hash = excluded.content_hash, fetched_at = excluded.fetched_at,
                    changed_at = excluded.changed_at, run_id = excluded.run_id
                """, logger: logger)
        }
        let now = Date().timeIntervalSince1970
        for url in batch.unchangedPages {
            try await connection.rows(
                "UPDATE page SET fetched_at = \(now), run_id = \(run), is_gone = FALSE WHERE url = \(url)",
                logger: logger)
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
}
