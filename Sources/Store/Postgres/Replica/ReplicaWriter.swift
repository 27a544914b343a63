import GRDB

/// The writes of a replica's public index, in the caller's transactions: the rows of `public_item` and their
/// word and gram index entries, written in bulk (triggers off: the `SQLiteStore` schema's `fts_bulk`) and in id
/// order, as the SQLite publisher writes them (FTS5 writes out its pending terms at every statement and
/// whenever a rowid is not above the previous one).
///
/// Use: ``begin()``, then ``remove(_:before:)`` and ``insert(_:)`` (in id order), then ``finish(rebuildingWords:)``.
struct ReplicaWriter {
    let db: Database

    init(_ db: Database) {
        self.db = db
    }

    /// Turns the full-text triggers off and empties the tables the changes wait in.
    func begin() throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO setting (name, value) VALUES ('fts_bulk', '1');
                CREATE TEMP TABLE IF NOT EXISTS replica_gone (id INTEGER PRIMARY KEY);
                CREATE TEMP TABLE IF NOT EXISTS replica_new (id INTEGER PRIMARY KEY);
                CREATE TEMP TABLE IF NOT EXISTS replica_grams (
                    id INTEGER PRIMARY KEY, title TEXT NOT NULL, description TEXT, keywords TEXT);
                DELETE FROM temp.replica_gone;
                DELETE FROM temp.replica_new;
                DELETE FROM temp.replica_grams;
                """)
    }

    /// Deletes the items `removed`, and those `rows` will write again (by id or identifier), with their
    /// full-text rows.
    func remove(_ removed: [Int64], before rows: [PublishedItemRow]) throws {
        let gone = try db.cachedStatement(sql: "INSERT OR IGNORE INTO temp.replica_gone (id) VALUES (?)")
        for id in removed { try gone.execute(arguments: [id]) }
        let goneByIdentifier = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO temp.replica_gone (id) SELECT id FROM public_item WHERE unique_identifier = ?")
        for row in rows {
            try gone.execute(arguments: [row.item.id])
            try goneByIdentifier.execute(arguments: [row.item.uniqueIdentifier])
        }
        // In id order, as the insertions (see the type's note).
        try db.execute(
            sql: """
                INSERT INTO public_fts (public_fts, rowid, title, description, keywords)
                SELECT 'delete', id, title, description, keywords FROM public_item
                WHERE id IN (SELECT id FROM temp.replica_gone) ORDER BY id;
                DELETE FROM public_grams WHERE rowid IN (SELECT id FROM temp.replica_gone);
                DELETE FROM public_item WHERE id IN (SELECT id FROM temp.replica_gone);
                """)
    }

    /// Inserts `rows` (in id order); their full-text rows wait for ``finish(rebuildingWords:)``. `notingNew`
    /// keeps their ids for the word index (not needed when it is rebuilt).
    func insert(_ rows: [PublishedItemRow], notingNew: Bool = true) throws {
        let insertItem = try db.cachedStatement(sql: PublicItemWrite.insertSQL)
        let note = try db.cachedStatement(sql: "INSERT INTO temp.replica_new (id) VALUES (?)")
        let noteGrams = try db.cachedStatement(
            sql: "INSERT INTO temp.replica_grams (id, title, description, keywords) VALUES (?, ?, ?, ?)")
        for row in rows {
            let item = row.item
            try insertItem.execute(
                arguments: item.insertArguments(clusterID: row.clusterID, publishedAt: row.publishedAt))
            if notingNew { try note.execute(arguments: [item.id]) }
            if let grams = item.gramRow {
                try noteGrams.execute(arguments: [item.id, grams.title, grams.description, grams.keywords])
            }
        }
    }

    /// Writes the new items' word and gram rows, each with one statement in id order, and turns the triggers
    /// back on. `rebuildingWords` builds the word index from every item instead (a new file: FTS5's
    /// `rebuild` reads the items once, in order).
    func finish(rebuildingWords: Bool) throws {
        if rebuildingWords {
            try db.execute(sql: "INSERT INTO public_fts (public_fts) VALUES ('rebuild')")
        } else {
            try db.execute(
                sql: """
                    INSERT INTO public_fts (rowid, title, description, keywords)
                    SELECT id, title, description, keywords FROM public_item
                    WHERE id IN (SELECT id FROM temp.replica_new) ORDER BY id
                    """)
        }
        try db.execute(
            sql: """
                INSERT INTO public_grams (rowid, title, description, keywords)
                SELECT id, title, description, keywords FROM temp.replica_grams ORDER BY id;
                DELETE FROM setting WHERE name = 'fts_bulk';
                DELETE FROM temp.replica_gone;
                DELETE FROM temp.replica_new;
                DELETE FROM temp.replica_grams;
                """)
    }
}
