import Foundation
import GRDB

extension SQLiteStore {
    /// Opens the pool and brings the schema up to date, safely while other processes open, read and
    /// write the same store.
    ///
    /// GRDB's `DatabasePool`, opening a store whose `-wal` file is missing or empty (the last process
    /// that closed the store removed it), creates and drops a table to give it one (GRDB issue 102).
    /// Two processes doing that at the same moment, or one doing it while another prepares its
    /// statements, made those fail with `database schema has changed` / `no such table` (measured:
    /// 9 of 15 pairs of `publish` started together on a closed store). A connection opened first puts a
    /// frame in the WAL with a write that changes no schema (the header's `user_version`, set to
    /// itself), and stays open until the pool is ready, so no other process's close can remove the
    /// WAL meanwhile: the pool then finds a WAL and leaves the schema alone.
    ///
    /// A new file's first process switches it to WAL, which takes an exclusive lock; another process
    /// opening it at that moment gets `SQLITE_BUSY` at once (SQLite does not wait there, to avoid a
    /// deadlock between two readers), so that step is tried again, for a few seconds at most.
    static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        let opener = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? opener.close() }
        for attempt in 1...Self.openAttempts {
            do {
                try opener.writeWithoutTransaction { db in
                    // A new file becomes WAL here (a store already in WAL keeps it: the mode is persistent).
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                    let walSize =
                        (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
                    if walSize == 0 {
                        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                        try db.execute(sql: "PRAGMA user_version = \(version)")
                    }
                }
                break
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < Self.openAttempts {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try migrate(pool)
        return pool
    }

    /// Tries of the first step of opening (10 ms apart).
    static let openAttempts = 500

    /// Brings the schema of `pool` up to date, also when other processes open the same new (or older)
    /// store at the same moment. Each migration runs in its own `IMMEDIATE` transaction, so they are
    /// serialized, but GRDB's migrator reads the list of applied migrations before it takes the write
    /// lock: a process that read it just before another one committed a migration replays that migration
    /// and fails ("table … already exists"), and nothing of the failed transaction remains. A failure
    /// after which more migrations are applied than before it means another process made the progress:
    /// read the list again and go on. The same after a statement that met another process's schema
    /// change half-way (`SQLITE_SCHEMA`, `no such table`: 2 in 40 fresh stores opened by four processes at
    /// once). Any other failure with no progress is a real one, thrown.
    private static func migrate(_ pool: DatabasePool) throws {
        let appliedMigrations = { () throws -> Set<String> in
            try pool.writeWithoutTransaction { db in try migrator.appliedIdentifiers(db) }
        }
        // Every retry follows another process's committed migration (at most one per migration) or a
        // statement that met the other process's schema change half-way (prepared against the schema
        // before it): a few more.
        for _ in 0..<(migrator.migrations.count + 3) {
            let before = (try? appliedMigrations()) ?? []
            do {
                try migrator.migrate(pool)
                return
            } catch {
                let progressed = (try? appliedMigrations().isStrictSuperset(of: before)) ?? false
                guard progressed || isSchemaRace(error) else { throw error }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        try migrator.migrate(pool)
    }

    /// Whether `error` is how a statement fails when another process changed the schema under it:
    /// `SQLITE_SCHEMA`, or a table that process had just created not found yet.
    private static func isSchemaRace(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_SCHEMA
            || (error.resultCode == .SQLITE_ERROR && (error.message ?? "").hasPrefix("no such table"))
    }
}
