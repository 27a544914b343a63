import GRDB

/// Where searches and item look-ups read the public index: on a SQLite store its own tables, on a PostgreSQL
/// store a local replica of them (``IndexReplica``). Either way a SQLite file with the same FTS5 tables, read
/// by the same code.
package enum SearchSource: Sendable {
    /// A SQLite store's own public index.
    case store(SQLiteStore)
    /// A PostgreSQL store's replica, as of its last sync.
    case replica(IndexReplica)

    /// The SQLite store to read now (a replica's current file: a rebuild may replace it between two calls).
    /// - Throws: ``StoreError`` when a replica has not been built yet.
    package func currentStore() throws(StoreError) -> SQLiteStore {
        switch self {
        case .store(let store): store
        case .replica(let replica): try replica.store()
        }
    }

    /// The generation of the index read: a replica's, as of its last sync; on a SQLite store the number of its
    /// last publish (`publish_run`), read now. `nil` before any.
    package func generation() async -> Int64? {
        switch self {
        case .replica(let replica):
            return replica.generation
        case .store(let store):
            return try? await store.read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM publish_run") }
        }
    }
}
