import GRDB

/// The gram index (`public_grams`, see ``GramText``) is written in the publish's transaction in bulk like
/// the word index: FTS5 writes out its pending terms at every statement's savepoint and whenever a rowid is
/// not above the previous one, so the rows go in with one statement, in id order. Only items with text
/// written without spaces have a row.
extension SQLitePublishWriter {
    /// Creates (or empties) the table the new items' gram rows wait in.
    func prepareGrams() throws {
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS publish_grams (
                    id INTEGER PRIMARY KEY, title TEXT NOT NULL, description TEXT, keywords TEXT);
                DELETE FROM temp.publish_grams;
                """)
    }

    /// Removes the gram rows of the items about to be deleted (the clusters in `temp.publish_gone`), before
    /// they are. A store with no gram row at all skips the look-ups.
    func removeGrams() throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM public_grams)") == true else { return }
        try db.execute(
            sql: """
                DELETE FROM public_grams WHERE rowid IN (
                    SELECT id FROM public_item WHERE cluster_id IN (SELECT cluster_id FROM temp.publish_gone))
                """)
    }

    /// Adds the noted gram rows, in id order.
    func addGrams() throws {
        try db.execute(
            sql: """
                INSERT INTO public_grams (rowid, title, description, keywords)
                SELECT id, title, description, keywords FROM temp.publish_grams ORDER BY id;
                DELETE FROM temp.publish_grams;
                """)
    }
}

/// The prepared statements that write one changed cluster and its item.
struct ClusterStatements {
    let update: Statement
    let insert: Statement
    let insertItem: Statement
    let noteNew: Statement
    let noteGrams: Statement
    /// Where new items' word-index rows go instead of `temp.publish_new`, when it is built beside the store.
    let wordIndexBuild: WordIndexSideBuild?

    init(_ db: Database, wordIndexBuild: WordIndexSideBuild?) throws {
        self.wordIndexBuild = wordIndexBuild
        update = try db.cachedStatement(
            sql: """
                UPDATE cluster SET fingerprint = ?, published = ?, reason = ?, matched_by = ?, members = ?,
                    valid_until = ? WHERE id = ?
                """)
        insert = try db.cachedStatement(
            sql: """
                INSERT INTO cluster (key, fingerprint, published, reason, matched_by, members, valid_until)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        insertItem = try db.cachedStatement(sql: PublicItemWrite.insertSQL)
        noteNew = try db.cachedStatement(sql: "INSERT INTO temp.publish_new (id) VALUES (?)")
        noteGrams = try db.cachedStatement(
            sql: "INSERT INTO temp.publish_grams (id, title, description, keywords) VALUES (?, ?, ?, ?)")
    }

    func write(_ cluster: ClusterWrite, publishedAt: Double, floor: Int64, db: Database) throws {
        let fingerprint = StoredClusterRow.stored(cluster.fingerprint)
        let clusterID: Int64
        if let id = cluster.storedID {
            try update.execute(arguments: [
                fingerprint, cluster.item != nil, cluster.reason, cluster.matchedBy, cluster.members,
                cluster.validUntil, id,
            ])
            clusterID = id
        } else {
            try insert.execute(arguments: [
                cluster.key, fingerprint, cluster.item != nil, cluster.reason, cluster.matchedBy, cluster.members,
                cluster.validUntil,
            ])
            clusterID = db.lastInsertedRowID
        }
        guard let item = cluster.item else { return }
        try insertItem.execute(arguments: item.insertArguments(clusterID: clusterID, publishedAt: publishedAt))
        if let wordIndexBuild {
            wordIndexBuild.add(
                id: item.id, title: item.title, description: item.description, keywords: item.keywords, floor: floor)
        } else {
            try noteNew.execute(arguments: [item.id])
        }
        if let grams = item.gramRow {
            try noteGrams.execute(arguments: [item.id, grams.title, grams.description, grams.keywords])
        }
    }
}
