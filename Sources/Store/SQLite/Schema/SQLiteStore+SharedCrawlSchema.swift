import GRDB

extension SQLiteStore {
    /// What lets many crawl workers share one store (SPEC §3 "Many workers"):
    ///
    /// - a lease on each frontier URL a worker has taken (`lease_owner`, `lease_until`): a URL leaves
    ///   `queued` only in the transaction that stores its result, and one whose lease ran out is free
    ///   again, so a dead worker's URLs go to the others;
    /// - `crawl_host`: politeness as a property of the host — when its next request may start (the delay,
    ///   `Crawl-delay`, a `Retry-After` pause) and how its robots.txt stands in the pass when no good copy
    ///   could be read (failures so far, when to retry, or given up);
    /// - `host_lease`: named leases on a host — its request slots (`slot:0` … `slot:N-1`, the per-host cap
    ///   across all workers) and the once-per-pass fetches of robots.txt and apple-app-site-association;
    /// - `crawl_worker`: one row per `crawl` process that took part in a pass, with its counters, so a
    ///   pass's totals are the sum of its workers' and a worker of this machine that no longer runs is
    ///   known dead without waiting for its leases to run out.
    static func registerSharedCrawlSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v11-shared-crawl") { db in
            try db.execute(
                sql: """
                    ALTER TABLE crawl_url ADD COLUMN lease_owner TEXT;
                    ALTER TABLE crawl_url ADD COLUMN lease_until REAL NOT NULL DEFAULT 0;
                    CREATE INDEX crawl_url_lease ON crawl_url (lease_owner) WHERE lease_owner IS NOT NULL;
                    CREATE TABLE crawl_host (
                        host TEXT PRIMARY KEY,
                        next_request_at REAL NOT NULL DEFAULT 0,
                        robots_run INTEGER,
                        robots_failures INTEGER NOT NULL DEFAULT 0,
                        robots_retry_at REAL NOT NULL DEFAULT 0,
                        robots_final TEXT,
                        robots_detail TEXT
                    );
                    CREATE TABLE host_lease (
                        host TEXT NOT NULL,
                        name TEXT NOT NULL,
                        owner TEXT NOT NULL,
                        until REAL NOT NULL,
                        PRIMARY KEY (host, name)
                    );
                    CREATE INDEX host_lease_owner ON host_lease (owner);
                    CREATE TABLE crawl_worker (
                        owner TEXT PRIMARY KEY,
                        run_id INTEGER NOT NULL,
                        machine TEXT NOT NULL,
                        pid INTEGER NOT NULL,
                        started_at REAL NOT NULL,
                        seen_at REAL NOT NULL,
                        ended_at REAL,
                        counters TEXT NOT NULL DEFAULT '{}'
                    );
                    CREATE INDEX crawl_worker_run ON crawl_worker (run_id);
                    """)
        }
    }
}
