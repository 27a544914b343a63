import GRDB

extension SQLiteStore {
    /// Indexes for query-language searches in rank (id) order, replacing two of v5–v7's; fewer indexes for
    /// imports and publishes to write.
    ///
    /// - `public_item_title_start` (the folded title's first two characters, then the id, the folded
    ///   prefix and the boost): a title-prefix query (`title == "lemon*"cd`) reads the items of its two
    ///   letters already in id order, checks the folded prefix on the index entry, and stops once enough
    ///   items match — no sort of the whole range first, which cost ~0.5 µs per candidate; where the
    ///   folded prefix decides the comparison alone, no row is read at all.
    /// - `public_item_rank` (the id, then the numbers a query filters on most): a query that reads only
    ///   these columns (`rating > 4`, `lastUsedDate > …`) scans these narrow entries in id order instead
    ///   of whole rows; other numbers and dates (`ratingCount`, `expirationDate`, `addedDate`) do not.
    ///
    /// FTS5 keeps up to 64 MiB of new terms in memory before it writes them out as a segment (its default
    /// is 1 MiB): a full publish of a million items then writes tens of segments instead of about 1,500,
    /// and merges them far less.
    /// The setting is stored with the table (`public_fts_config`); https://sqlite.org/fts5.html, "FTS5 configuration options".
    ///
    /// `public_item_title_ascii` and `public_item_title_fold` go: nothing reads them any more, and every
    /// index costs the publisher time. The `title_ascii` column stays (dropping a column rewrites the
    /// table) and is no longer written. `donation_bundle` goes too: no query ever used it (deletions reach
    /// donor hashes through their activity's identity), and as a second random-order B-tree it cost every
    /// imported donation an insertion all over the file.
    static func registerSearchIndexSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-search-indexes") { db in
            try db.execute(
                sql: """
                    DROP INDEX public_item_title_ascii;
                    DROP INDEX public_item_title_fold;
                    DROP INDEX donation_bundle;
                    CREATE INDEX public_item_title_start ON public_item (\(titleStartSQL), id, title_fold, boost);
                    CREATE INDEX public_item_rank ON public_item (\(rankIndexColumns.joined(separator: ", ")));
                    INSERT INTO public_fts (public_fts, rank) VALUES ('hashsize', \(fullTextHashSize));
                    """)
        }
    }

    /// The expression `public_item_title_start` is keyed by; a query must spell it the same way (over
    /// the table's column, unqualified or as `item.title_fold`) for SQLite to use the index.
    package static let titleStartSQL = "substr(title_fold, 1, 2)"

    /// Bytes of pending full-text terms FTS5 holds before writing a segment.
    static let fullTextHashSize = 64 << 20

    /// How many leading characters of the folded title `public_item_title_start` groups by (the `2` of
    /// ``titleStartSQL``).
    package static let titleStartLength = 2

    /// The columns of `public_item_rank`, in order: a query whose condition reads only these is answered
    /// from the index alone.
    package static let rankIndexColumns = ["id", "boost", "engagement", "rating", "last_seen"]
}
