import GRDB

extension SQLiteStore {
    /// Revisit scheduling (SPEC §3 "Freshness"):
    ///
    /// - `crawl_url.next_visit_at`: when the URL is due again (NULL: never scheduled, so due), set from
    ///   each visit; `revisit_interval`: the interval that set it, doubled or halved by the next visit;
    ///   `visited_at`: when the last visit ended it (fetched, refused by robots.txt, failed);
    ///   `sitemap_lastmod`: the `lastmod` a sitemap last gave it, which makes it due when newer than its
    ///   last visit;
    /// - `crawl_run.due_before`: for a refresh pass (`crawl --refresh`), the time it started from: a URL
    ///   already in the frontier is queued again in that pass only when due by then; NULL for a full pass,
    ///   which queues again everything it reaches.
    ///
    /// URLs fetched before this migration get a first interval of one day from their last fetch.
    static func registerFreshnessSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v13-freshness") { db in
            try db.execute(
                sql: """
                    ALTER TABLE crawl_url ADD COLUMN next_visit_at REAL;
                    ALTER TABLE crawl_url ADD COLUMN revisit_interval REAL;
                    ALTER TABLE crawl_url ADD COLUMN sitemap_lastmod REAL;
                    ALTER TABLE crawl_url ADD COLUMN visited_at REAL;
                    ALTER TABLE crawl_run ADD COLUMN due_before REAL;
                    UPDATE crawl_url SET revisit_interval = 86400, next_visit_at = fetched_at + 86400,
                        visited_at = fetched_at
                    WHERE fetched_at IS NOT NULL;
                    CREATE INDEX crawl_url_next_visit ON crawl_url (next_visit_at);
                    """)
        }
    }

    /// Indexes for what a refresh pass queues first (``RefreshRules/indexes``).
    static func registerRefreshIndexSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v15-refresh-indexes") { db in
            for statement in RefreshRules.indexes { try db.execute(sql: statement) }
        }
    }
}
