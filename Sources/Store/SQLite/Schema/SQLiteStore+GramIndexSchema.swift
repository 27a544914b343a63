import GRDB

extension SQLiteStore {
    /// `public_grams`: the gram index, which finds words inside text written without spaces (``GramText``;
    /// Docs/index.md, "Search"). One row per public item that has such text, under the item's id, with its
    /// title, description and keywords as ``GramText/indexed(_:)`` writes them; items of spaced scripts
    /// only have no row, so they cost it nothing.
    ///
    /// - The tokenizer is the word index's, with combining marks kept in tokens (`categories 'L* N* Co M*'`):
    ///   the word index cuts `ที่ดี` at its vowel and tone marks; here a pair of Thai characters stays one
    ///   token. Latin words fold as in the word index (case, diacritics).
    /// - The one-character prefix index answers a one-character query (`"港"*`) from one doclist, lazily;
    ///   without it FTS5 merges the doclists of every pair the character begins first, however few
    ///   matches are asked for.
    /// - FTS5 stores the gram text itself (no external content): the gram text is computed by the
    ///   publisher, so a row can only be deleted by FTS5 if it kept what it indexed.
    ///
    /// The publisher writes the index in bulk (with `fts_bulk` set, like the word index): it computes the
    /// gram text while it builds the items. No trigger can compute it (a trigger may call only functions
    /// every connection has, and a tool opening the file without the store has none of Searchlight's), so
    /// a public item inserted by anything else is not in the gram index. The triggers keep the index from
    /// ever naming what is no longer there: a deleted item's row goes, an item whose id changes takes its
    /// row along, and an item whose text changes loses its row (found again after the next publish).
    ///
    /// The items already published are indexed here, in id order in one statement (FTS5 writes a new
    /// segment whenever a rowid is not above the previous one).
    static func registerGramIndexSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v9-gram-index") { db in
            let gramText = DatabaseFunction("searchlight_gram_text", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map(GramText.indexed)
            }
            let hasUnspaced = DatabaseFunction("searchlight_has_unspaced", argumentCount: 3, pure: true) { values in
                values.contains { String.fromDatabaseValue($0).map(GramText.containsUnspaced) == true }
            }
            db.add(function: gramText)
            db.add(function: hasUnspaced)
            defer {
                db.remove(function: gramText)
                db.remove(function: hasUnspaced)
            }
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE public_grams USING fts5 (
                        title, description, keywords,
                        tokenize = "\(gramTokenizer)", prefix = '1'
                    );
                    INSERT INTO public_grams (public_grams, rank) VALUES ('hashsize', \(fullTextHashSize));
                    CREATE TRIGGER public_item_grams_ad AFTER DELETE ON public_item
                    WHEN NOT EXISTS (SELECT 1 FROM setting WHERE name = 'fts_bulk') BEGIN
                        DELETE FROM public_grams WHERE rowid = old.id;
                    END;
                    CREATE TRIGGER public_item_grams_au AFTER UPDATE OF id, title, description, keywords ON public_item
                    WHEN NOT EXISTS (SELECT 1 FROM setting WHERE name = 'fts_bulk') BEGIN
                        INSERT INTO public_grams (rowid, title, description, keywords)
                        SELECT new.id, title, description, keywords FROM public_grams
                        WHERE rowid = old.id AND new.id != old.id AND \(sameText);
                        DELETE FROM public_grams WHERE rowid = old.id AND (new.id != old.id OR NOT (\(sameText)));
                    END;
                    INSERT INTO public_grams (rowid, title, description, keywords)
                    SELECT id, searchlight_gram_text(title), searchlight_gram_text(description),
                        searchlight_gram_text(keywords)
                    FROM public_item WHERE searchlight_has_unspaced(title, description, keywords) ORDER BY id;
                    """)
        }
    }

    /// The gram index's tokenizer (see ``registerGramIndexSchema(in:)``).
    static let gramTokenizer = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'"

    /// In a `public_item` update trigger: the indexed text did not change.
    private static let sameText =
        "new.title IS old.title AND new.description IS old.description AND new.keywords IS old.keywords"
}
