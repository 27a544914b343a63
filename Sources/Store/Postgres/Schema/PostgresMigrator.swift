import Logging
internal import PostgresNIO

/// One schema change of the PostgreSQL store: a name that is never reused, and the statements that make the
/// change, run on a connection inside the migration's transaction.
struct PostgresMigration: Sendable {
    /// The name recorded in `searchlight_migration` once the migration is applied.
    let identifier: String
    /// Runs the change (one statement per query: the extended protocol takes one at a time).
    let apply: @Sendable (PostgresConnection, Logger) async throws -> Void
}

/// Brings a PostgreSQL store's schema up to date, also while other processes open the same store.
///
/// Each migration runs in a transaction of its own that first takes a transaction-scoped advisory lock
/// (`pg_advisory_xact_lock`, released by the commit or rollback, also when the process dies) and then
/// checks, under the lock, whether another process applied the migration meanwhile: two processes that
/// start together on a new store apply each migration exactly once, the second waiting for the first's
/// commit and finding it done. A store that is up to date is recognised with one query and no lock.
/// A failed migration rolls back whole, so the store stays at the last migration that committed.
enum PostgresMigrator {
    /// The advisory lock key of Searchlight's migrations: "SEARCHLT" in ASCII, so it is unlikely to meet
    /// another application's lock in a shared database.
    static let lockKey: Int64 = 0x5345_4152_4348_4C54

    /// The table that records applied migrations.
    static let table = "searchlight_migration"

    /// Applies the migrations `connection`'s database lacks, in order.
    ///
    /// - Returns: the identifiers this call applied (none when the store was up to date, or when another
    ///   process applied them first).
    /// - Throws: a migration's error (its transaction rolled back). Migrations this build does not know (a
    ///   newer build's) are left alone, as GRDB's migrator leaves them in a SQLite store.
    @discardableResult
    static func migrate(
        _ connection: PostgresConnection, migrations: [PostgresMigration] = PostgresSchema.migrations,
        logger: Logger
    ) async throws -> [String] {
        let applied = try await appliedIdentifiers(connection, logger: logger)
        var appliedNow: [String] = []
        for migration in migrations where !applied.contains(migration.identifier) {
            let didApply = try await connection.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TABLE IF NOT EXISTS \(table) (
                                identifier TEXT COLLATE "C" PRIMARY KEY,
                                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
                            )
                            """),
                    logger: logger)
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT 1 FROM \(table) WHERE identifier = $1", binds: binds(migration)),
                    logger: logger)
                for try await _ in rows { return false }
                try await migration.apply(connection, logger)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "INSERT INTO \(table) (identifier) VALUES ($1)", binds: binds(migration)),
                    logger: logger)
                return true
            }
            if didApply {
                logger.info("migrated the PostgreSQL store", metadata: ["migration": "\(migration.identifier)"])
                appliedNow.append(migration.identifier)
            }
        }
        return appliedNow
    }

    /// The identifiers recorded in the migrations table; none when there is no such table yet.
    static func appliedIdentifiers(_ connection: PostgresConnection, logger: Logger) async throws -> Set<String> {
        let exists = try await connection.query("SELECT to_regclass(\(table)) IS NOT NULL", logger: logger)
        for try await hasTable in exists.decode(Bool.self) where !hasTable { return [] }
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT identifier FROM \(table)"), logger: logger)
        var identifiers: Set<String> = []
        for try await identifier in rows.decode(String.self) { identifiers.insert(identifier) }
        return identifiers
    }

    private static func binds(_ migration: PostgresMigration) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(migration.identifier)
        return binds
    }
}
