import Foundation
import GRDB

/// Bringing a replica forward: the changes after its generation, read from one PostgreSQL snapshot, applied
/// in one SQLite transaction.
extension IndexReplica {
    /// What applying the changes came to.
    enum ApplyOutcome {
        case applied(ReplicaSync)
        case rebuild(ReplicaSync.RebuildReason)
        /// The file's generation was not the one planned from (another process synced it meanwhile).
        case overtaken
    }

    /// The most items one sync applies row by row; past it the replica is rebuilt (a rebuild writes the
    /// full-text indexes in one pass, and holds one batch in memory rather than the whole change).
    static let maxAppliedItems = 100_000

    /// Reads the changes after `current`'s generation and applies them to its file.
    func applyChanges(to current: Opened) async throws -> ApplyOutcome {
        try await database.readIndexSnapshot { reader in
            let head = try await reader.head()
            let from = current.generation
            if head.generation == from {
                return .applied(ReplicaSync(from: from, generation: from, written: 0, removed: 0))
            }
            guard from >= head.historyFrom, from < head.generation else { return .rebuild(.historyPruned) }
            guard try await reader.writtenCount(after: from) <= Self.maxAppliedItems else {
                return .rebuild(.largeChange)
            }
            let removed = try await reader.removedIDs(after: from)
            var rows: [PublishedItemRow] = []
            try await reader.forEachItemBatch(after: from, batchSize: 1_000) { batch in
                rows += batch.map(Self.withGrams)
            }
            let collected = rows
            let applied = try await current.store.pool.writeWithoutTransaction { db -> Bool in
                var applied = false
                try db.inTransaction(.immediate) {
                    guard try ReplicaMarks.read(db).generation == from else { return .rollback }
                    let writer = ReplicaWriter(db)
                    try writer.begin()
                    try writer.remove(removed, before: collected)
                    try writer.insert(collected.sorted { $0.item.id < $1.item.id })
                    try writer.finish(rebuildingWords: false)
                    try ReplicaMarks.setGeneration(head.generation, in: db)
                    applied = true
                    return .commit
                }
                return applied
            }
            guard applied else { return .overtaken }
            return .applied(
                ReplicaSync(from: from, generation: head.generation, written: rows.count, removed: removed.count))
        }
    }

    /// `row` with its gram index row, when its text has words written without spaces.
    static func withGrams(_ row: PublishedItemRow) -> PublishedItemRow {
        var row = row
        row.item.gramRow = GramText.row(
            title: row.item.title, description: row.item.description, keywords: row.item.keywords)
        return row
    }
}

/// The writes of a replica's public index, in the caller's transactions: the rows of `public_item` and their
/// word and gram index entries, written in bulk (triggers off: the `Store` schema's `fts_bulk`) and in id
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
        let insertItem = try db.cachedStatement(
            sql: """
                INSERT INTO public_item (id, cluster_id, unique_identifier, webpage_url, bundle, title, description,
                    keywords, domain_identifier, rating, rating_count, engagement, boost, sources, expires_at,
                    last_seen, published_at, item_json, title_fold)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let note = try db.cachedStatement(sql: "INSERT INTO temp.replica_new (id) VALUES (?)")
        let noteGrams = try db.cachedStatement(
            sql: "INSERT INTO temp.replica_grams (id, title, description, keywords) VALUES (?, ?, ?, ?)")
        for row in rows {
            let item = row.item
            try insertItem.execute(arguments: [
                item.id, row.clusterID, item.uniqueIdentifier, item.webpageURL, item.bundle, item.title,
                item.description, item.keywords, item.domainIdentifier, item.rating, item.ratingCount,
                item.engagement, item.boost, item.sources, item.expiresAt, item.lastSeen, row.publishedAt,
                item.itemJSON, item.titleFold,
            ])
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

/// What a replica file records about itself, in its `setting` table: the store it copies, the generation it
/// holds and the format its rows were written in (a new format rebuilds every replica).
enum ReplicaMarks {
    /// The format of replica files this build writes.
    static let format = "1"

    static let identitySetting = "replica_store"
    static let generationSetting = "replica_generation"
    static let formatSetting = "replica_format"

    struct Values {
        var identity: String?
        var generation: Int64?
        var format: String?
    }

    static func read(_ db: Database) throws -> Values {
        var values = Values()
        for row in try Row.fetchAll(
            db, sql: "SELECT name, value FROM setting WHERE name IN (?, ?, ?)",
            arguments: [identitySetting, generationSetting, formatSetting])
        {
            let name: String = row[0]
            let value: String = row[1]
            switch name {
            case identitySetting: values.identity = value
            case generationSetting: values.generation = Int64(value)
            default: values.format = value
            }
        }
        return values
    }

    static func setGeneration(_ generation: Int64, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?)",
            arguments: [generationSetting, String(generation)])
    }

    static func write(identity: String, generation: Int64, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?), (?, ?)",
            arguments: [identitySetting, identity, formatSetting, format])
        try setGeneration(generation, in: db)
    }
}
