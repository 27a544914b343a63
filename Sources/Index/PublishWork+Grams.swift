import GRDB
import Store

/// The gram index (`public_grams`, see `Store.GramText`) written in the publish's transaction, in bulk
/// like the word index: FTS5 writes out its pending terms at every statement's savepoint and whenever a
/// rowid is not above the previous one, so the rows go in with one statement, in id order. Only items
/// with text written without spaces have a row; the others cost a scan of their text's bytes on the
/// builder's thread and nothing here.
extension PublishWork {
    /// Notes one new item's gram row until ``addGrams(_:)``.
    static let noteGramsSQL = "INSERT INTO temp.publish_grams (id, title, description, keywords) VALUES (?, ?, ?, ?)"

    /// Creates (or empties) the table the new items' gram rows wait in.
    static func prepareGrams(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS publish_grams (
                    id INTEGER PRIMARY KEY, title TEXT NOT NULL, description TEXT, keywords TEXT);
                DELETE FROM temp.publish_grams;
                """)
    }

    /// Removes the gram rows of the items about to be deleted (the clusters in `temp.publish_gone`), before
    /// they are. A store with no gram row at all skips the look-ups.
    static func removeGrams(_ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM public_grams)") == true else { return }
        try db.execute(
            sql: """
                DELETE FROM public_grams WHERE rowid IN (
                    SELECT id FROM public_item WHERE cluster_id IN (SELECT cluster_id FROM temp.publish_gone))
                """)
    }

    /// Adds the noted gram rows, in id order.
    static func addGrams(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO public_grams (rowid, title, description, keywords)
                SELECT id, title, description, keywords FROM temp.publish_grams ORDER BY id;
                DELETE FROM temp.publish_grams;
                """)
    }
}
