internal import PostgresNIO

extension PostgresSchema {
    /// `v2-shared-crawl`: the counterpart of the SQLite migration `v11-shared-crawl` — frontier leases on
    /// `crawl_url`, politeness per host (`crawl_host`), named host leases (`host_lease`: request slots and
    /// the once-per-pass robots.txt and apple-app-site-association fetches) and one row per crawl worker
    /// (`crawl_worker`). `SQLiteStore+SharedCrawlSchema.swift` says what each one is for; the translation follows
    /// `v1-schema`'s rules.
    static let sharedCrawl = PostgresMigration(identifier: "v2-shared-crawl") { connection, logger in
        for statement in sharedCrawlStatements {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
    }

    static let sharedCrawlStatements = [
        #"ALTER TABLE crawl_url ADD COLUMN lease_owner TEXT COLLATE "C""#,
        "ALTER TABLE crawl_url ADD COLUMN lease_until DOUBLE PRECISION NOT NULL DEFAULT 0",
        "CREATE INDEX crawl_url_lease ON crawl_url (lease_owner) WHERE lease_owner IS NOT NULL",
        """
        CREATE TABLE crawl_host (
            host TEXT COLLATE "C" PRIMARY KEY,
            next_request_at DOUBLE PRECISION NOT NULL DEFAULT 0,
            robots_run BIGINT,
            robots_failures BIGINT NOT NULL DEFAULT 0,
            robots_retry_at DOUBLE PRECISION NOT NULL DEFAULT 0,
            robots_final TEXT COLLATE "C",
            robots_detail TEXT COLLATE "C"
        )
        """,
        """
        CREATE TABLE host_lease (
            host TEXT COLLATE "C" NOT NULL,
            name TEXT COLLATE "C" NOT NULL,
            owner TEXT COLLATE "C" NOT NULL,
            until DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (host, name)
        )
        """,
        "CREATE INDEX host_lease_owner ON host_lease (owner)",
        """
        CREATE TABLE crawl_worker (
            owner TEXT COLLATE "C" PRIMARY KEY,
            run_id BIGINT NOT NULL,
            machine TEXT COLLATE "C" NOT NULL,
            pid BIGINT NOT NULL,
            started_at DOUBLE PRECISION NOT NULL,
            seen_at DOUBLE PRECISION NOT NULL,
            ended_at DOUBLE PRECISION,
            counters TEXT COLLATE "C" NOT NULL DEFAULT '{}'
        )
        """,
        "CREATE INDEX crawl_worker_run ON crawl_worker (run_id)",
    ]
}
