import Foundation
import Store

/// The one way tests get a PostgreSQL database: a copy of a template (`CREATE DATABASE … TEMPLATE`), made
/// through one connection the cluster keeps for it.
///
/// Two templates per cluster, made on first use: an empty database, and one migrated to the current schema.
/// A copy of the migrated one is up to date when the product opens it (one query), where migrating an empty
/// database takes about a hundred round trips; with hundreds of tests sharing a two-core machine each of
/// those waits its turn. The migrations themselves are tested on copies of the empty one.
///
/// Only three processes are started per cluster (`createdb` twice, `psql` once): Foundation's `Process.run`
/// on Linux (Swift 6.3.1) can crash reading `/proc/self/fd` in a process with many files open, as the whole
/// suite's is (an over-read in `findMaximumOpenFromProcSelfFD`, fixed in swift-corelibs-foundation after
/// 6.3.1). Both templates take no connections (`ALLOW_CONNECTIONS false`), so autovacuum never holds one
/// while a copy is made ("source database is being accessed by other users").
extension PostgresCluster {
    /// What a new database holds.
    package enum DatabaseSchema: Sendable {
        /// Nothing: the store's migrations run when it is first opened.
        case empty
        /// The store's current schema, as a store that was opened before.
        case migrated
    }

    /// Creates a new database holding `schema` and returns its name; each test takes its own, so tests run
    /// in parallel on one cluster without sharing state.
    package func makeDatabase(_ schema: DatabaseSchema = .empty) async throws -> String {
        let maker = try await databaseMaker()
        let name = "test_\(getpid())_\(nextDatabaseNumber())"
        let template = schema == .empty ? maker.emptyTemplate : maker.migratedTemplate
        _ = try await maker.connection.rows("CREATE DATABASE \(name) TEMPLATE \(template)")
        return name
    }

    /// A new database with the current schema, opened as a store.
    package func makeStore() async throws -> PostgresStore {
        try await PostgresStore.open(try location(database: try await makeDatabase(.migrated)))
    }

    /// The store location of `database` on this cluster (with the password, when the cluster has one).
    package func location(database: String) throws -> PostgresLocation {
        let url = url(database: database, includingPassword: true)
        guard case .postgres(let location) = try StoreLocation(parsing: url) else {
            throw Failure.commandFailed("StoreLocation(parsing:)", status: 1, output: "\(url) is not PostgreSQL")
        }
        return location
    }

    /// The templates and the connection copies are made through, made by the first caller.
    private func databaseMaker() async throws -> DatabaseMaker {
        let task = maker.withLock { current in
            if let current { return current }
            let task = Task { [self] in try await makeDatabaseMaker() }
            current = task
            return task
        }
        return try await task.value
    }

    private func makeDatabaseMaker() async throws -> DatabaseMaker {
        let prefix = "template_\(getpid())"
        let empty = prefix + "_empty"
        let migrated = prefix + "_migrated"
        try await createDatabaseWithProgram(empty)
        try await createDatabaseWithProgram(migrated)
        await (try await PostgresStore.open(try location(database: migrated))).close()
        let makerName = prefix + "_maker"
        _ = try await psql("CREATE DATABASE \(makerName) TEMPLATE \(migrated)", database: "postgres")
        let connection = try await PostgresStore.open(try location(database: makerName))
        for template in [empty, migrated] {
            _ = try await connection.rows("ALTER DATABASE \(template) WITH ALLOW_CONNECTIONS false")
        }
        return DatabaseMaker(emptyTemplate: empty, migratedTemplate: migrated, connection: connection)
    }
}

/// The two templates of a cluster and the store whose connections create the copies.
final class DatabaseMaker: Sendable {
    let emptyTemplate: String
    let migratedTemplate: String
    let connection: PostgresStore

    init(emptyTemplate: String, migratedTemplate: String, connection: PostgresStore) {
        self.emptyTemplate = emptyTemplate
        self.migratedTemplate = migratedTemplate
        self.connection = connection
    }
}
