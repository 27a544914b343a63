import GRDB

extension SQLiteStore {
    /// The schema, as an ordered list of migrations. A migration once released is never
    /// edited: later changes are new migrations, so every existing store upgrades in place.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        registerCrawlSchema(in: &migrator)
        registerIndexSchema(in: &migrator)
        registerFrontierKeySchema(in: &migrator)
        registerRankOrderSchema(in: &migrator)
        registerBulkFullTextSchema(in: &migrator)
        registerTitlePrefixSchema(in: &migrator)
        registerNumberIndexSchema(in: &migrator)
        registerTitleFoldSchema(in: &migrator)
        registerSearchIndexSchema(in: &migrator)
        registerGramIndexSchema(in: &migrator)
        registerPublicTextSchema(in: &migrator)
        registerSharedCrawlSchema(in: &migrator)
        registerTokenSchema(in: &migrator)
        registerFreshnessSchema(in: &migrator)
        registerCrawlURLSchema(in: &migrator)
        registerRefreshIndexSchema(in: &migrator)
        registerRenderSchema(in: &migrator)
        return migrator
    }()

    /// The crawl: passes, frontier, pages, redirects, fetch log, host files.
    private static func registerCrawlSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1-crawl") { db in
            // One row per crawl invocation that started a new pass over the frontier;
            // `finished_at` stays NULL until the pass ends, which is how a rerun knows to resume.
            try db.execute(
                sql: """
                    CREATE TABLE crawl_run (
                        id INTEGER PRIMARY KEY,
                        started_at REAL NOT NULL,
                        finished_at REAL,
                        seeds TEXT NOT NULL,
                        counters TEXT NOT NULL DEFAULT '{}'
                    );
                    """)
            // The frontier: every URL ever seen, by normalized URL. `run_id` is the pass that
            // last queued it: a URL is due in a pass when it is `queued` with that pass's id.
            try db.execute(
                sql: """
                    CREATE TABLE crawl_url (
                        id INTEGER PRIMARY KEY,
                        url TEXT NOT NULL UNIQUE,
                        host TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        depth INTEGER NOT NULL,
                        source TEXT NOT NULL,
                        discovered_from TEXT,
                        redirect_hops INTEGER NOT NULL DEFAULT 0,
                        run_id INTEGER NOT NULL,
                        state TEXT NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        not_before REAL NOT NULL DEFAULT 0,
                        outcome TEXT,
                        http_status INTEGER,
                        detail TEXT,
                        etag TEXT,
                        last_modified TEXT,
                        content_hash TEXT,
                        fetched_at REAL
                    );
                    CREATE INDEX crawl_url_due ON crawl_url (run_id, state, host, kind, depth, id);
                    """)
            // What each fetched page became. `links` keeps the page's in-scope links so a
            // re-crawl that gets 304 Not Modified can follow them without re-extracting.
            try db.execute(
                sql: """
                    CREATE TABLE page (
                        url TEXT PRIMARY KEY,
                        final_url TEXT NOT NULL,
                        canonical_url TEXT,
                        http_status INTEGER NOT NULL,
                        content_type TEXT,
                        is_indexable INTEGER NOT NULL,
                        not_indexed_reason TEXT,
                        is_gone INTEGER NOT NULL DEFAULT 0,
                        title TEXT,
                        item_json TEXT,
                        links TEXT NOT NULL DEFAULT '',
                        content_hash TEXT,
                        fetched_at REAL NOT NULL,
                        changed_at REAL NOT NULL,
                        run_id INTEGER NOT NULL
                    );
                    """)
            try db.execute(
                sql: """
                    CREATE TABLE redirect (
                        from_url TEXT PRIMARY KEY,
                        to_url TEXT NOT NULL,
                        http_status INTEGER NOT NULL,
                        run_id INTEGER NOT NULL
                    );
                    CREATE INDEX redirect_to ON redirect (to_url);
                    """)
            try db.execute(
                sql: """
                    CREATE TABLE fetch_log (
                        id INTEGER PRIMARY KEY,
                        run_id INTEGER NOT NULL,
                        url TEXT NOT NULL,
                        at REAL NOT NULL,
                        http_status INTEGER,
                        bytes INTEGER NOT NULL DEFAULT 0,
                        seconds REAL NOT NULL DEFAULT 0,
                        outcome TEXT NOT NULL,
                        detail TEXT
                    );
                    """)
            // Per-host files with their own caching rules (robots.txt: good copies only, ≤ 24 h).
            try db.execute(
                sql: """
                    CREATE TABLE host_file (
                        host TEXT NOT NULL,
                        name TEXT NOT NULL,
                        fetched_at REAL NOT NULL,
                        http_status INTEGER,
                        body BLOB,
                        detail TEXT,
                        PRIMARY KEY (host, name)
                    );
                    """)
        }
    }
}
