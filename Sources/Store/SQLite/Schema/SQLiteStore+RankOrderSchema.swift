import GRDB

extension SQLiteStore {
    /// The search index as `PublicSearch` needs it at scale (Docs/index.md, "Search"):
    /// - public items of stores published before ``ItemRankOrder`` existed (ids 1, 2, 3…) are
    ///   re-numbered: each keeps its old id as its sequence, under its boost bucket, and the next
    ///   sequence starts after the largest (ids already in rank order, above 2⁴⁰, stay);
    /// - `public_fts` gets prefix indexes of 2 to 6 characters (it had 2 and 3): a longer prefix
    ///   than the index keeps makes FTS5 merge the matches of every word it begins before the
    ///   first one comes out, tens of milliseconds for a common one at a million items.
    /// The FTS table is dropped first and rebuilt from `public_item` last, so the re-numbering
    /// does not go through the triggers row by row.
    static func registerRankOrderSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-rank-order") { db in
            let mask = ItemRankOrder.maxSequence
            try db.execute(
                sql: """
                    DROP TRIGGER public_item_ai;
                    DROP TRIGGER public_item_ad;
                    DROP TRIGGER public_item_au;
                    DROP TABLE public_fts;
                    INSERT OR REPLACE INTO setting (name, value)
                        VALUES (?, (SELECT coalesce(max(id & \(mask)), 0) + 1 FROM public_item));
                    UPDATE public_item SET id = \(ItemRankOrder.idSQL(boost: "boost", sequence: "id"))
                        WHERE id <= \(mask);
                    CREATE VIRTUAL TABLE public_fts USING fts5 (
                        title, description, keywords,
                        content = 'public_item', content_rowid = 'id',
                        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6'
                    );
                    \(switchableFullTextTriggers)
                    INSERT INTO public_fts (public_fts) VALUES ('rebuild');
                    """,
                arguments: [ItemRankOrder.sequenceSetting])
        }
    }
}
