import GRDB

extension SQLiteStore {
    /// Frontier URLs in the form ``CrawlURL`` gives them (``FrontierRenormalization``): the `url`, `host`
    /// and `url_key` of each `crawl_url` row recomputed in Swift, batch by batch. Most rows stay as they are;
    /// those that change hold, for example, `'` in a query (which the WHATWG parser escapes as `%27`) or an
    /// IPv4-mapped IPv6 literal (written in hex).
    static func registerCrawlURLSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v14-whatwg-crawl-url") { db in
            try renormalizeFrontier(db)
        }
    }

    private static func renormalizeFrontier(_ db: Database) throws {
        var lastID: Int64 = 0
        // Younger rows whose key an older row took: their key read in the batch is stale.
        var cleared: Set<Int64> = []
        while true {
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, url, host, url_key FROM crawl_url WHERE id > ? ORDER BY id LIMIT ?",
                arguments: [lastID, FrontierRenormalization.batchSize])
            guard let last = rows.last else { break }
            lastID = last["id"]
            for row in rows {
                var old = FrontierRenormalization.Row(
                    id: row["id"], url: row["url"], host: row["host"], key: row["url_key"])
                if cleared.contains(old.id) { old.key = nil }
                guard let new = FrontierRenormalization.renormalized(old) else { continue }
                var keyHolder: Int64?
                if let key = new.key, key != old.key {
                    keyHolder = try Int64.fetchOne(
                        db, sql: "SELECT id FROM crawl_url WHERE url_key = ? AND id <> ?", arguments: [key, old.id])
                }
                var urlTaken = false
                if new.url != old.url {
                    urlTaken =
                        try Bool.fetchOne(
                            db,
                            sql: """
                                SELECT EXISTS (SELECT 1 FROM crawl_url WHERE url = ? AND id <> ?)
                                    OR EXISTS (SELECT 1 FROM page WHERE url = ?)
                                    OR EXISTS (SELECT 1 FROM redirect WHERE from_url = ?)
                                """,
                            arguments: [new.url, old.id, new.url, new.url]) ?? false
                }
                let settled = FrontierRenormalization.settle(old, new, keyHolder: keyHolder, urlTaken: urlTaken)
                if let younger = settled.clearKeyOf {
                    try db.execute(sql: "UPDATE crawl_url SET url_key = NULL WHERE id = ?", arguments: [younger])
                    cleared.insert(younger)
                }
                try db.execute(
                    sql: "UPDATE crawl_url SET url = ?, host = ?, url_key = ? WHERE id = ?",
                    arguments: [settled.row.url, settled.row.host, settled.row.key, old.id])
                guard settled.row.url != old.url else { continue }
                for statement in [
                    "UPDATE page SET url = ? WHERE url = ?", "UPDATE redirect SET from_url = ? WHERE from_url = ?",
                    "UPDATE redirect SET to_url = ? WHERE to_url = ?",
                ] {
                    try db.execute(sql: statement, arguments: [settled.row.url, old.url])
                }
            }
        }
    }
}
