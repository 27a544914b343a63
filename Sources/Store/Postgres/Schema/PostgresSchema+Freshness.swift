internal import PostgresNIO

extension PostgresSchema {
    /// `v5-freshness`: the counterpart of the SQLite migration `v13-freshness` (revisit scheduling), translated
    /// by `v1-schema`'s rules.
    static let freshness = PostgresMigration(identifier: "v5-freshness") { connection, logger in
        for statement in [
            "ALTER TABLE crawl_url ADD COLUMN next_visit_at DOUBLE PRECISION",
            "ALTER TABLE crawl_url ADD COLUMN revisit_interval DOUBLE PRECISION",
            "ALTER TABLE crawl_url ADD COLUMN sitemap_lastmod DOUBLE PRECISION",
            "ALTER TABLE crawl_url ADD COLUMN visited_at DOUBLE PRECISION",
            "ALTER TABLE crawl_run ADD COLUMN due_before DOUBLE PRECISION",
            """
            UPDATE crawl_url SET revisit_interval = 86400, next_visit_at = fetched_at + 86400,
                visited_at = fetched_at
            WHERE fetched_at IS NOT NULL
            """,
            "CREATE INDEX crawl_url_next_visit ON crawl_url (next_visit_at)",
        ] {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    /// `v7-refresh-indexes`: the counterpart of the SQLite migration `v15-refresh-indexes`
    /// (``RefreshRules/indexes``).
    static let refreshIndexes = PostgresMigration(identifier: "v7-refresh-indexes") { connection, logger in
        for statement in RefreshRules.indexes {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }
}
