/// Where searches and item look-ups read the public index: on a SQLite store its own tables, on a PostgreSQL
/// store a local replica of them (``IndexReplica``). Either way a SQLite file with the same FTS5 tables, read
/// by the same code.
package enum SearchSource: Sendable {
    /// A SQLite store's own public index.
    case store(Store)
    /// A PostgreSQL store's replica, as of its last sync.
    case replica(IndexReplica)

    /// The SQLite store to read now (a replica's current file: a rebuild may replace it between two calls).
    /// - Throws: ``StoreError`` when a replica has not been built yet.
    package func currentStore() throws(StoreError) -> Store {
        switch self {
        case .store(let store): store
        case .replica(let replica): try replica.store()
        }
    }

    /// The generation of the index read (a replica's; `nil` on a SQLite store, which has none).
    package var generation: Int64? {
        if case .replica(let replica) = self { return replica.generation }
        return nil
    }
}
