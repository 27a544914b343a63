import GRDB
import Items

/// What `serve` reads besides searches, from the same index they read: published items and the index's health.
extension SearchSource {
    /// The JSON of the published item `uniqueIdentifier` (SPEC §6's item), or `nil`.
    package func publicItem(uniqueIdentifier: String) async throws(StoreError) -> String? {
        try await publicItems(uniqueIdentifiers: [uniqueIdentifier])[uniqueIdentifier]
    }

    /// The JSON of each published item of `uniqueIdentifiers` that exists (SPEC §6's item, put back together
    /// from its stored form, ``StoredItem``), by identifier, read with one statement (a search page's hits).
    package func publicItems(uniqueIdentifiers: [String]) async throws(StoreError) -> [String: String] {
        guard !uniqueIdentifiers.isEmpty else { return [:] }
        let sql =
            "SELECT unique_identifier, \(SQLiteStore.publishedItemColumns) FROM public_item WHERE unique_identifier IN ("
            + databaseQuestionMarks(count: uniqueIdentifiers.count) + ")"
        let rows = try await currentStore().read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(uniqueIdentifiers)).map {
                (row: Row) -> (String, String) in
                (row[0], StoredItem.publishedJSON(stored: row[1], title: row[2], description: row[3], keywords: row[4]))
            }
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Reads what a search reads, a little of each: the first published item (its row and its JSON) and a
    /// word's entry in FTS5's word and gram indexes. Throws when any of it cannot be read: a store that answers
    /// `SELECT 1` may still have a file whose pages are not a database. A few page reads, however large the
    /// index.
    ///
    /// The pages are read from the file, not from the connection's cache: pages cached while the file was
    /// sound prove nothing about it now (another program may have overwritten it, which WAL's change tracking
    /// does not see). When the check fails, every connection's cached pages are dropped, so searches read the
    /// file too and fail with it rather than answer from a store that is gone.
    package func checkSearchable() async throws(StoreError) {
        let store = try currentStore()
        do {
            _ = try await store.read { db in
                try db.execute(sql: "PRAGMA shrink_memory")
                _ = try Row.fetchOne(db, sql: "SELECT id, item_json FROM public_item ORDER BY id LIMIT 1")
                _ = try Int.fetchOne(db, sql: "SELECT rowid FROM public_fts WHERE public_fts MATCH 'healthz' LIMIT 1")
                _ = try Int.fetchOne(db, sql: "SELECT rowid FROM public_grams WHERE public_grams MATCH 'ok' LIMIT 1")
            }
        } catch {
            store.pool.releaseMemoryEventually()
            throw error
        }
    }
}
