import GRDB
import URLCanonical

extension SQLiteStore {
    /// The frontier deduplicated on the SPEC §4 canonical URL instead of the fetch URL.
    ///
    /// `crawl_url.url` stays the URL fetched (the spelling first found, normalized by the crawler);
    /// `crawl_url.url_key` is its dedup key (``FrontierCandidate/key(for:)``): tracking parameters
    /// dropped, parameters sorted, fragment removed. Its unique index is both what candidates are
    /// deduplicated on and how the bridge finds a URL's crawl state from an activity's `url_key`.
    static func registerFrontierKeySchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-frontier-key") { db in
            try db.execute(
                sql: """
                    ALTER TABLE crawl_url ADD COLUMN url_key TEXT;
                    CREATE UNIQUE INDEX crawl_url_key ON crawl_url (url_key);
                    """)
            try backfillFrontierKeys(db)
        }
    }

    /// Keys the existing rows, oldest first, a thousand at a time (memory stays flat on a big
    /// frontier). Rows that were distinct URLs before but share a key now (`?b=1&a=2` and
    /// `?a=2&b=1`) keep their rows and their history; the oldest gets the key and the later ones
    /// keep a NULL key (a unique index admits any number of NULLs), so the migration never fails on
    /// them. A later candidate with that key updates the keyed row; one with exactly a NULL-keyed
    /// row's URL updates that row (see `insertCandidates`).
    private static func backfillFrontierKeys(_ db: Database) throws {
        let update = try db.makeStatement(sql: "UPDATE OR IGNORE crawl_url SET url_key = ? WHERE id = ?")
        var lastID: Int64 = 0
        while true {
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, url FROM crawl_url WHERE id > ? ORDER BY id LIMIT 1000", arguments: [lastID])
            guard let last = rows.last else { break }
            lastID = last["id"]
            for row in rows {
                let id: Int64 = row["id"]
                let url: String = row["url"]
                try update.execute(arguments: [FrontierCandidate.key(for: url), id])
            }
        }
    }
}

extension FrontierCandidate {
    /// The frontier's dedup key of a URL: its SPEC §4 canonical key (``URLCanonical/canonicalKey(_:base:)``),
    /// or the URL itself in the unlikely case the WHATWG parser refuses a URL the crawler accepted.
    package static func key(for url: String) -> String {
        canonicalKey(url) ?? url
    }
}
