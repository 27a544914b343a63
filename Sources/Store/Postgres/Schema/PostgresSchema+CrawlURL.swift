internal import PostgresNIO

extension PostgresSchema {
    /// `v6-whatwg-crawl-url`: the counterpart of the SQLite migration `v14-whatwg-crawl-url` (frontier URLs,
    /// host keys and frontier keys recomputed by ``FrontierRenormalization``, batch by batch).
    static let crawlURL = PostgresMigration(identifier: "v6-whatwg-crawl-url") { connection, logger in
        var lastID: Int64 = 0
        // Younger rows whose key an older row took: their key read in the batch is stale.
        var cleared: Set<Int64> = []
        while true {
            var rows: [FrontierRenormalization.Row] = []
            for row in try await connection.rows(
                """
                SELECT id, url, host, url_key FROM crawl_url WHERE id > \(lastID) ORDER BY id
                LIMIT \(FrontierRenormalization.batchSize)
                """, logger: logger)
            {
                let cells = row.makeRandomAccess()
                rows.append(
                    FrontierRenormalization.Row(
                        id: try cells.value("id"), url: try cells.value("url"), host: try cells.value("host"),
                        key: try cells.value("url_key", as: String?.self)))
            }
            guard let last = rows.last else { break }
            lastID = last.id
            for var old in rows {
                if cleared.contains(old.id) { old.key = nil }
                guard let new = FrontierRenormalization.renormalized(old) else { continue }
                var keyHolder: Int64?
                if let key = new.key, key != old.key {
                    keyHolder = try await connection.rows(
                        "SELECT id FROM crawl_url WHERE url_key = \(key) AND id <> \(old.id)", logger: logger
                    ).first?.makeRandomAccess().value("id", as: Int64.self)
                }
                var urlTaken = false
                if new.url != old.url {
                    urlTaken = try await !connection.rows(
                        """
                        SELECT 1 WHERE EXISTS (SELECT 1 FROM crawl_url WHERE url = \(new.url) AND id <> \(old.id))
                            OR EXISTS (SELECT 1 FROM page WHERE url = \(new.url))
                            OR EXISTS (SELECT 1 FROM redirect WHERE from_url = \(new.url))
                        """, logger: logger
                    ).isEmpty
                }
                let settled = FrontierRenormalization.settle(old, new, keyHolder: keyHolder, urlTaken: urlTaken)
                if let younger = settled.clearKeyOf {
                    try await connection.rows(
                        "UPDATE crawl_url SET url_key = NULL WHERE id = \(younger)", logger: logger)
                    cleared.insert(younger)
                }
                try await connection.rows(
                    """
                    UPDATE crawl_url SET url = \(settled.row.url), host = \(settled.row.host),
                        url_key = \(settled.row.key) WHERE id = \(old.id)
                    """, logger: logger)
                guard settled.row.url != old.url else { continue }
                let (url, oldURL) = (settled.row.url, old.url)
                try await connection.rows("UPDATE page SET url = \(url) WHERE url = \(oldURL)", logger: logger)
                try await connection.rows(
                    "UPDATE redirect SET from_url = \(url) WHERE from_url = \(oldURL)", logger: logger)
                try await connection.rows(
                    "UPDATE redirect SET to_url = \(url) WHERE to_url = \(oldURL)", logger: logger)
            }
        }
    }
}
