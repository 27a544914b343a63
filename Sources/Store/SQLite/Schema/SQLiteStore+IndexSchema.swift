import GRDB

extension SQLiteStore {
    /// The bridge and the public index: donated records (content only above the engagement
    /// threshold, salted hashes below it), the clusters of the last publish, the public items
    /// and their FTS5 index.
    static func registerIndexSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-index") { db in
            // Store-wide settings: `engagement_threshold`, `expiry_days`, and `salt` — a random
            // key made once per store, so hashes of URLs and donors cannot be compared across
            // stores or looked up in a precomputed table.
            try db.execute(
                sql: """
                    CREATE TABLE setting (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                    INSERT INTO setting (name, value) VALUES ('salt', lower(hex(randomblob(32))));
                    """)
            // Every distinct (activity, donor) pair ever imported, as keyed hashes only: this is
            // how distinct donors are counted while an activity is below the threshold, when its
            // content may not be stored. `bundle` is kept in clear (a bundle identifier is public: it
            // names the app); its index went in v8-search-indexes, no query having used it.
            try db.execute(
                sql: """
                    CREATE TABLE donation (
                        identity BLOB NOT NULL,
                        donor BLOB NOT NULL,
                        bundle TEXT NOT NULL,
                        PRIMARY KEY (identity, donor)
                    ) WITHOUT ROWID;
                    CREATE INDEX donation_bundle ON donation (bundle);
                    """)
            // Records counted for the report but never stored: not eligible for public indexing,
            // expired when imported, or with neither a web page nor required user info. Keyed by a
            // hash of (identity, donor) so importing the same file twice counts once.
            try db.execute(
                sql: """
                    CREATE TABLE withheld_record (
                        hash BLOB PRIMARY KEY,
                        bundle TEXT NOT NULL,
                        reason TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """)
            // Activities that reached the engagement threshold: the only donated content stored.
            // `version` changes whenever anything a publish reads changes (incremental publish).
            try db.execute(
                sql: """
                    CREATE TABLE activity (
                        id INTEGER PRIMARY KEY,
                        identity BLOB NOT NULL UNIQUE,
                        bundle TEXT NOT NULL,
                        activity_type TEXT NOT NULL,
                        webpage_url TEXT,
                        url_key TEXT,
                        persistent_identifier TEXT,
                        related_id TEXT,
                        weak_related_id TEXT,
                        domain_identifier TEXT,
                        title TEXT,
                        description TEXT,
                        keywords TEXT,
                        thumbnail_url TEXT,
                        rating REAL,
                        rating_count INTEGER,
                        user_info TEXT,
                        expires_at REAL,
                        donors INTEGER NOT NULL,
                        first_seen REAL NOT NULL,
                        last_seen REAL NOT NULL,
                        version INTEGER NOT NULL DEFAULT 1
                    );
                    CREATE INDEX activity_related ON activity (bundle, related_id);
                    CREATE INDEX activity_url ON activity (url_key);
                    """)
            // Donated searchable items: used only for linking (never public on their own), so only
            // their identifiers and dates are stored, never their content.
            try db.execute(
                sql: """
                    CREATE TABLE app_item (
                        bundle TEXT NOT NULL,
                        unique_identifier TEXT NOT NULL,
                        domain_identifier TEXT,
                        expires_at REAL,
                        last_seen REAL NOT NULL,
                        PRIMARY KEY (bundle, unique_identifier)
                    ) WITHOUT ROWID;
                    CREATE INDEX app_item_domain ON app_item (bundle, domain_identifier);
                    """)
            // Activity web pages above the threshold that were never crawled: the crawler's
            // pending frontier (SPEC §7 `crawl`). Removed once the URL was fetched.
            try db.execute(
                sql: """
                    CREATE TABLE pending_url (
                        url_key TEXT PRIMARY KEY,
                        url TEXT NOT NULL,
                        added_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    """)
            // The clusters of the last publish, for the report and for incremental publishing:
            // `fingerprint` covers every member's version, so an unchanged cluster is skipped.
            try db.execute(
                sql: """
                    CREATE TABLE cluster (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        fingerprint BLOB NOT NULL,
                        published INTEGER NOT NULL,
                        reason TEXT NOT NULL,
                        matched_by TEXT NOT NULL,
                        members TEXT NOT NULL,
                        valid_until REAL
                    );
                    """)
            // The public index: one row per published cluster, with the columns the query
            // language reads, and the item as SPEC §6 prints it.
            try db.execute(
                sql: """
                    CREATE TABLE public_item (
                        id INTEGER PRIMARY KEY,
                        cluster_id INTEGER NOT NULL UNIQUE REFERENCES cluster (id) ON DELETE CASCADE,
                        unique_identifier TEXT NOT NULL UNIQUE,
                        webpage_url TEXT,
                        bundle TEXT,
                        title TEXT NOT NULL,
                        description TEXT,
                        keywords TEXT,
                        domain_identifier TEXT,
                        rating REAL,
                        rating_count INTEGER,
                        engagement INTEGER NOT NULL,
                        boost REAL NOT NULL,
                        sources TEXT NOT NULL,
                        expires_at REAL,
                        last_seen REAL NOT NULL,
                        published_at REAL NOT NULL,
                        item_json TEXT NOT NULL
                    );
                    """)
            // Full text over title, description and keywords. External content (the text lives
            // once, in public_item), kept in step by triggers; prefix indexes of 2 and 3 characters
            // make Spotlight-like prefix queries cheap. https://sqlite.org/fts5.html#external_content_tables
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE public_fts USING fts5 (
                        title, description, keywords,
                        content = 'public_item', content_rowid = 'id',
                        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
                    );
                    CREATE TRIGGER public_item_ai AFTER INSERT ON public_item BEGIN
                        INSERT INTO public_fts (rowid, title, description, keywords)
                        VALUES (new.id, new.title, new.description, new.keywords);
                    END;
                    CREATE TRIGGER public_item_ad AFTER DELETE ON public_item BEGIN
                        INSERT INTO public_fts (public_fts, rowid, title, description, keywords)
                        VALUES ('delete', old.id, old.title, old.description, old.keywords);
                    END;
                    CREATE TRIGGER public_item_au AFTER UPDATE ON public_item BEGIN
                        INSERT INTO public_fts (public_fts, rowid, title, description, keywords)
                        VALUES ('delete', old.id, old.title, old.description, old.keywords);
                        INSERT INTO public_fts (rowid, title, description, keywords)
                        VALUES (new.id, new.title, new.description, new.keywords);
                    END;
                    """)
            // One row per publish: what it changed and its report summary (SPEC §6).
            try db.execute(
                sql: """
                    CREATE TABLE publish_run (
                        id INTEGER PRIMARY KEY,
                        at REAL NOT NULL,
                        engagement_threshold INTEGER NOT NULL,
                        clusters_changed INTEGER NOT NULL,
                        summary TEXT NOT NULL
                    );
                    """)
        }
    }

    /// The full-text triggers can be turned off for one transaction: the publisher sets `fts_bulk` and
    /// updates the index with one statement per publish, because FTS5 flushes its pending terms at
    /// every statement's savepoint, so row-by-row triggers in a large transaction write thousands of
    /// tiny segments (a million-item publish spent 40% of its time there).
    static func registerBulkFullTextSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4-fts-bulk") { db in
            try db.execute(
                sql: """
                    DROP TRIGGER public_item_ai;
                    DROP TRIGGER public_item_ad;
                    DROP TRIGGER public_item_au;
                    \(switchableFullTextTriggers)
                    """)
        }
    }

    /// `public_item.title_ascii`: how many leading bytes of the title are ASCII (capped at 64), indexed.
    /// A title-prefix query found the items whose title starts with enough ASCII through FTS5 and the
    /// few others through this index; v8-search-indexes replaced both (the column is no longer written).
    static func registerTitlePrefixSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-title-ascii") { db in
            let asciiPrefix = DatabaseFunction("searchlight_ascii_prefix", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(SQLiteStore.asciiPrefixLength) ?? 0
            }
            db.add(function: asciiPrefix)
            defer { db.remove(function: asciiPrefix) }
            try db.execute(
                sql: """
                    ALTER TABLE public_item ADD COLUMN title_ascii INTEGER NOT NULL DEFAULT 0;
                    UPDATE public_item SET title_ascii = searchlight_ascii_prefix(title);
                    CREATE INDEX public_item_title_ascii ON public_item (title_ascii);
                    """)
        }
    }

    /// The cap of `public_item.title_ascii` (longer ASCII prefixes are stored as this).
    package static let titleASCIIPrefixCap = 64

    /// Indexes on the numbers queries filter on (`engagement >= 1000`, `rating > 4`): a query that
    /// matches few items reads them through the index instead of scanning the index in rank order.
    static func registerNumberIndexSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6-number-indexes") { db in
            try db.execute(
                sql: """
                    CREATE INDEX public_item_engagement ON public_item (engagement);
                    CREATE INDEX public_item_rating ON public_item (rating);
                    """)
        }
    }

    /// The full-text triggers that the publisher's `fts_bulk` setting turns off (v3-rank-order and
    /// v4-fts-bulk both create them; released migrations depend on this text: never change it).
    static let switchableFullTextTriggers = """
        CREATE TRIGGER public_item_ai AFTER INSERT ON public_item
        WHEN NOT EXISTS (SELECT 1 FROM setting WHERE name = 'fts_bulk') BEGIN
            INSERT INTO public_fts (rowid, title, description, keywords)
            VALUES (new.id, new.title, new.description, new.keywords);
        END;
        CREATE TRIGGER public_item_ad AFTER DELETE ON public_item
        WHEN NOT EXISTS (SELECT 1 FROM setting WHERE name = 'fts_bulk') BEGIN
            INSERT INTO public_fts (public_fts, rowid, title, description, keywords)
            VALUES ('delete', old.id, old.title, old.description, old.keywords);
        END;
        CREATE TRIGGER public_item_au AFTER UPDATE ON public_item
        WHEN NOT EXISTS (SELECT 1 FROM setting WHERE name = 'fts_bulk') BEGIN
            INSERT INTO public_fts (public_fts, rowid, title, description, keywords)
            VALUES ('delete', old.id, old.title, old.description, old.keywords);
            INSERT INTO public_fts (rowid, title, description, keywords)
            VALUES (new.id, new.title, new.description, new.keywords);
        END;
        """

    /// `public_item.title_fold`: the first characters of the folded title, indexed. The items whose title
    /// does not start with enough ASCII characters for the full-text half of a title-prefix query are found
    /// by a range on this index instead of folding every one of them (see `TitlePrefixHint` in Index).
    static func registerTitleFoldSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v7-title-fold") { db in
            let prefix = DatabaseFunction("searchlight_fold_prefix", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(SQLiteStore.foldedPrefix) ?? ""
            }
            db.add(function: prefix)
            defer { db.remove(function: prefix) }
            try db.execute(
                sql: """
                    ALTER TABLE public_item ADD COLUMN title_fold TEXT NOT NULL DEFAULT '';
                    UPDATE public_item SET title_fold = searchlight_fold_prefix(title);
                    CREATE INDEX public_item_title_fold ON public_item (title_fold);
                    """)
        }
    }
}
