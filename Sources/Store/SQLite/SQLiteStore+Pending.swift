import GRDB

extension SQLiteStore {
    /// Pending activity web pages (`pending_url`, written by the importer) in key order, starting
    /// after `key` (from the first when `nil`), at most `limit`: read in slices, so a crawl never
    /// holds the whole table.
    package func pendingURLs(after key: String?, limit: Int) async throws(StoreError) -> [PendingURL] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT url_key, url FROM pending_url WHERE ?1 IS NULL OR url_key > ?1
                    ORDER BY url_key LIMIT ?2
                    """,
                arguments: [key, limit]
            ).map { PendingURL(key: $0["url_key"], url: $0["url"]) }
        }
    }

    /// Whether any activity web page waits for the crawler.
    package func hasPendingURLs() async throws(StoreError) -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pending_url)") ?? false
        }
    }
}
