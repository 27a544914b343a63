import GRDB

extension SQLiteStore: PublishStore {
    /// ``PublishStore/publish(recordingEngagementThreshold:expiryDays:into:plan:itemCount:write:)`` on SQLite:
    /// the settings recorded in a transaction of their own, the snapshot read in a read transaction, the plan
    /// made outside the write lock, and the write in ``SQLitePublishTransaction``, whose
    /// ``PublishTransaction/lastPublishID()`` tells whether another publish committed meanwhile.
    package func publish<Snapshot: PublishSnapshotSink, Plan: Sendable, Result: Sendable>(
        recordingEngagementThreshold engagementThreshold: Int?, expiryDays: Double?, into snapshot: Snapshot,
        plan: @escaping @Sendable (Snapshot) async throws -> Plan, itemCount: @escaping @Sendable (Plan) -> Int,
        write: @escaping @Sendable (Plan, any PublishTransaction) async throws -> Result
    ) async throws -> Result {
        if engagementThreshold != nil || expiryDays != nil {
            try await self.write { db in
                try Self.recordSettings(engagementThreshold: engagementThreshold, expiryDays: expiryDays, in: db)
                if let engagementThreshold { try Self.purgeActivities(below: engagementThreshold, in: db) }
            }
        }
        let read = try await self.read { db in
            var read = snapshot
            try SQLitePublishReader(db).read(into: &read)
            return read
        }
        let planned = try await plan(read)
        do {
            return try await SQLitePublishTransaction.run(on: self, expectingItems: itemCount(planned)) { transaction in
                try await write(planned, transaction)
            }
        } catch let overtaken as PublishOvertaken {
            throw overtaken
        } catch {
            throw StoreError(path: path, underlying: error)
        }
    }

    /// Runs `body`, a publish about to write `itemCount` items, in one write transaction on the store's writer
    /// connection, with the connection set for a bulk write (``withBulkWriting(cacheMegabytes:checkpointMegabytes:_:)``).
    ///
    /// When `itemCount` could make a whole new index (`threshold`, the writer's
    /// ``SQLitePublishWriter/deferredIndexThreshold``), a file
    /// for its word index (``WordIndexSideBuild``) is created beside the store and attached first (`ATTACH`
    /// cannot run in a transaction), and given to `body`, which uses it or not; it is detached and removed
    /// afterwards, whatever happened. The transaction then begins deferred and takes the store's write lock
    /// with its first statement: `BEGIN IMMEDIATE` would also lock the attached file against its own builder.
    func publishTransaction<T>(
        expectingItems itemCount: Int, threshold: Int = SQLitePublishWriter.deferredIndexThreshold,
        _ body: (Database, WordIndexSideBuild?) throws -> T
    ) throws -> T {
        try withBulkWriting {
            try pool.writeWithoutTransaction { db in
                guard itemCount >= threshold else {
                    return try Self.inTransaction(db) { try body(db, nil) }
                }
                let side = try WordIndexSideBuild(
                    besides: path, tableSQL: try Self.wordIndexDefinition(db),
                    settings: try Self.wordIndexSettings(db))
                defer { side.remove() }
                try db.execute(
                    sql: "ATTACH DATABASE ? AS \(WordIndexSideBuild.schemaName)", arguments: [side.path])
                defer { try? db.execute(sql: "DETACH DATABASE \(WordIndexSideBuild.schemaName)") }
                return try Self.inTransaction(db, deferred: true) { try body(db, side) }
            }
        }
    }

    /// Runs `body` in a transaction on `db` that commits when `body` returns and rolls back when it throws.
    private static func inTransaction<T>(_ db: Database, deferred: Bool = false, _ body: () throws -> T) throws -> T {
        var result: T?
        try db.inTransaction(deferred ? .deferred : .immediate) {
            // Any write to the main schema takes its write lock (waiting through the busy handler) before
            // the transaction has read anything, as `BEGIN IMMEDIATE` would.
            if deferred { try db.execute(sql: "UPDATE main.setting SET value = value WHERE 0") }
            result = try body()
            return .commit
        }
        guard let result else { preconditionFailure("a committed transaction ran its body") }
        return result
    }

    /// The store's `CREATE VIRTUAL TABLE public_fts …` statement.
    private static func wordIndexDefinition(_ db: Database) throws -> String {
        guard
            let sql = try String.fetchOne(
                db, sql: "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = 'public_fts'")
        else { throw StoreError(path: db.description, message: "the store has no word index (public_fts)") }
        return sql
    }

    /// The word index's FTS5 settings as the store holds them.
    private static func wordIndexSettings(_ db: Database) throws -> [(key: String, value: DatabaseValue)] {
        try Row.fetchAll(db, sql: "SELECT k, v FROM main.public_fts_config").map { (key: $0["k"], value: $0["v"]) }
    }
}
