import Foundation
import GRDB

/// The publisher's writes into a SQLite store, in the caller's write transaction: the same operations as
/// ``PostgresPublishTransaction``'s, plus the FTS5 word and gram indexes, which are written in bulk.
///
/// Use: ``removeClusters(_:rewriting:)`` first (deletions before insertions, so an item that moved between
/// clusters never meets itself), then ``write(_:publishedAt:)`` for every changed cluster, then
/// ``finishIndexes()``; the pending pages, counts and the run record after that.
final class SQLitePublishWriter {
    let db: Database
    private var statements: ClusterStatements?
    /// The `CREATE INDEX` statements of the item indexes set aside by ``deferItemIndexes(writing:)``.
    private var deferredIndexes: [String] = []
    /// The file the word index may be built in beside the store, attached to `db`.
    private let wordIndexFile: WordIndexSideBuild?
    /// `wordIndexFile` once ``deferItemIndexes(writing:threshold:)`` started building the word index there.
    private var wordIndexBuild: WordIndexSideBuild?

    /// Writes through `db`, a write transaction the caller holds; a whole new index gets its word index built
    /// in `wordIndexFile` (``SQLiteStore/publishTransaction(expectingItems:_:)``), when given.
    init(_ db: Database, wordIndexFile: WordIndexSideBuild? = nil) {
        self.db = db
        self.wordIndexFile = wordIndexFile
    }

    /// The id of the last publish (0 before the first).
    func lastPublishID() throws -> Int64 {
        try SQLitePublishReader(db).lastPublishID()
    }

    /// Deletes the clusters `removed` with their items, and the items of the clusters `rewritten`, from the
    /// index and its full-text tables.
    func removeClusters(_ removed: [Int64], rewriting rewritten: [Int64]) throws {
        // Full-text rows are removed and added in bulk (see the schema's note on FTS5 and savepoints).
        try db.execute(
            sql: """
                INSERT INTO setting (name, value) VALUES ('fts_bulk', '1');
                CREATE TEMP TABLE IF NOT EXISTS publish_gone (cluster_id INTEGER PRIMARY KEY);
                CREATE TEMP TABLE IF NOT EXISTS publish_new (id INTEGER PRIMARY KEY);
                DELETE FROM temp.publish_gone;
                DELETE FROM temp.publish_new;
                """)
        try prepareGrams()
        let gone = try db.cachedStatement(sql: "INSERT OR IGNORE INTO temp.publish_gone (cluster_id) VALUES (?)")
        for id in removed { try gone.execute(arguments: [id]) }
        for id in rewritten { try gone.execute(arguments: [id]) }
        try removeGrams()
        // In id order, as the insertions: FTS5 writes out its pending changes whenever a rowid is not above
        // the previous one, so deletions in cluster order would write a segment nearly every row.
        try db.execute(
            sql: """
                INSERT INTO public_fts (public_fts, rowid, title, description, keywords)
                SELECT 'delete', id, title, description, keywords FROM public_item
                WHERE cluster_id IN (SELECT cluster_id FROM temp.publish_gone) ORDER BY id;
                DELETE FROM public_item WHERE cluster_id IN (SELECT cluster_id FROM temp.publish_gone);
                """)
        let deleteCluster = try db.cachedStatement(sql: "DELETE FROM cluster WHERE id = ?")
        for id in removed { try deleteCluster.execute(arguments: [id]) }
    }

    /// The fewest items a publish into an empty index writes for its item indexes to be built once at the end
    /// rather than kept up to date row by row.
    static let deferredIndexThreshold = 50_000

    /// When the index is empty (a first publish, or every cluster rewritten) and `count` items are about to be
    /// written, drops `public_item`'s secondary indexes, which ``finishIndexes()`` builds again from their own
    /// stored definitions: building an index from a sort of the finished table writes each page once, where
    /// inserting a million entries in random order (engagement, rating, folded title) splits and rewrites
    /// pages all over the file. Readers keep the previous index and its indexes until the commit. The unique
    /// keys stay: they are constraints. With a `wordIndexFile`, the word index is built there meanwhile
    /// (``WordIndexSideBuild``) and copied in by ``finishIndexes()``.
    func deferItemIndexes(writing count: Int, threshold: Int = deferredIndexThreshold) throws {
        guard count >= threshold,
            try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM public_item)") == true
        else { return }
        if let wordIndexFile {
            // Empties the word index, and drops the removals ``removeClusters(_:rewriting:)`` left pending
            // in FTS5's memory: nothing of it may be written over the copied tables at the commit.
            try db.execute(sql: "INSERT INTO public_fts (public_fts) VALUES ('delete-all')")
            wordIndexFile.start()
            wordIndexBuild = wordIndexFile
        }
        let indexes = try Row.fetchAll(
            db,
            sql: """
                SELECT name, sql FROM sqlite_master
                WHERE type = 'index' AND tbl_name = 'public_item' AND sql IS NOT NULL ORDER BY name
                """)
        for index in indexes {
            let name: String = index["name"]
            deferredIndexes.append(index["sql"])
            try db.execute(sql: "DROP INDEX \"\(name)\"")
        }
    }

    /// Reserves `count` item sequence numbers (``ItemRankOrder``) and returns the first.
    func reserveSequences(_ count: Int) throws -> Int64 {
        try Self.reserveSequences(count, in: db)
    }

    /// Whether the word index is being built beside the store (``deferItemIndexes(writing:threshold:)``).
    var isBuildingWordIndexBeside: Bool { wordIndexBuild != nil }

    /// Writes one changed cluster and its item; the item's full-text rows wait for ``finishIndexes()``.
    /// `laterItemsFrom`: no item written after this one will have a lower id, when known (it lets the word
    /// index built beside the store take its rows early; a wrong one costs time, not correctness).
    func write(_ cluster: ClusterWrite, publishedAt: Double, laterItemsFrom floor: Int64 = .min) throws {
        if statements == nil { statements = try ClusterStatements(db, wordIndexBuild: wordIndexBuild) }
        try statements?.write(cluster, publishedAt: publishedAt, floor: floor, db: db)
    }

    /// Adds the new items' rows to the word and gram indexes, in id order (FTS5 starts a new segment
    /// whenever a rowid is not above the previous one), and ends the bulk write.
    func finishIndexes() throws {
        if let wordIndexBuild {
            try wordIndexBuild.finish()
            try copyWordIndex()
        }
        try db.execute(
            sql: """
                INSERT INTO public_fts (rowid, title, description, keywords)
                SELECT id, title, description, keywords FROM public_item
                WHERE id IN (SELECT id FROM temp.publish_new) ORDER BY id;
                DELETE FROM setting WHERE name = 'fts_bulk';
                DELETE FROM temp.publish_gone;
                DELETE FROM temp.publish_new;
                """)
        try addGrams()
        for statement in deferredIndexes { try db.execute(sql: statement) }
        deferredIndexes = []
    }

    /// Replaces the word index's tables with those built beside the store: the segments with their pages
    /// (`_data`, which also holds the index's structure and totals), the segment index (`_idx`) and the
    /// documents' sizes (`_docsize`). The settings (`_config`) stay the store's.
    private func copyWordIndex() throws {
        let side = WordIndexSideBuild.schemaName
        for table in ["public_fts_data", "public_fts_idx", "public_fts_docsize"] {
            try db.execute(sql: "DELETE FROM main.\(table); INSERT INTO main.\(table) SELECT * FROM \(side).\(table)")
        }
    }

    /// Queues the activity pages `entries` for the crawler unless the crawl already ended them (a crawl may
    /// have fetched them since the snapshot); returns how many were queued.
    func queuePending(_ entries: [(key: String, url: String)], at time: Double) throws -> Int {
        var added = 0
        let statement = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO pending_url (url_key, url, added_at)
                SELECT ?1, ?2, ?3 WHERE NOT EXISTS (SELECT 1 FROM crawl_url WHERE url_key = ?1 AND state != 'queued')
                """)
        for (key, url) in entries {
            try statement.execute(arguments: [key, url, time])
            added += db.changesCount
        }
        return added
    }

    /// The number of published items, and of withheld clusters by reason, as the index now stands.
    func indexCounts() throws -> (published: Int, withheldClusters: [String: Int]) {
        let published = try Int.fetchOne(db, sql: "SELECT count(*) FROM public_item") ?? 0
        var withheld: [String: Int] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT reason, count(*) AS n FROM cluster WHERE published = 0 GROUP BY reason")
        {
            withheld[row["reason"], default: 0] += row["n"] as Int
        }
        return (published, withheld)
    }

    /// Records the publish (`publish_run`) with its summary as the report reads it.
    func recordRun(at time: Double, engagementThreshold: Int, changedClusters: Int, summary: String) throws {
        try db.execute(
            sql: """
                INSERT INTO publish_run (at, engagement_threshold, clusters_changed, summary) VALUES (?, ?, ?, ?)
                """,
            arguments: [time, engagementThreshold, changedClusters, summary])
    }

    /// Reserves `count` sequences and returns the first; the caller gives them out in order within
    /// its transaction.
    /// - Throws: a database error, or when the sequences are exhausted.
    private static func reserveSequences(_ count: Int, in db: Database) throws -> Int64 {
        let next =
            try Int64.fetchOne(
                db, sql: "SELECT CAST(value AS INTEGER) FROM setting WHERE name = ?",
                arguments: [
                    ItemRankOrder.sequenceSetting
                ]) ?? 1
        guard count >= 0, next >= 1, next <= ItemRankOrder.maxSequence - Int64(count) else {
            throw DatabaseError(resultCode: .SQLITE_FULL, message: "public item ids exhausted (\(next) + \(count))")
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?)",
            arguments: [ItemRankOrder.sequenceSetting, String(next + Int64(count))])
        return next
    }
}
