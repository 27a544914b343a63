import Logging
internal import PostgresNIO

/// The database of a PostgreSQL store: a pooled PostgresNIO client, connected and migrated.
///
/// ``open(_:logger:)`` first makes one plain connection, which reports a failure to connect as it happened
/// (the pool retries failed connections with a backoff and only later fails the waiting query with a
/// generic error), and brings the schema up to date on it (``PostgresMigrator``). Then it starts the pool
/// (`PostgresClient`) in a task of its own; ``close()`` cancels that task, which closes every connection.
/// A `PostgresStore` is safe to share between tasks.
package final class PostgresStore: Sendable {
    /// Where the database is.
    package let location: PostgresLocation
    /// The pool; its connections exist while ``runner`` runs.
    let client: PostgresClient
    /// Runs `client.run()` until ``close()`` (or deinit) cancels it.
    private let runner: Task<Void, Never>
    /// Where the client and the store's queries log.
    let logger: Logger

    private init(location: PostgresLocation, client: PostgresClient, logger: Logger) {
        self.location = location
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
    }

    deinit {
        runner.cancel()
    }

    /// Connects to the database `location` names and brings its schema up to date.
    ///
    /// - Parameter logger: where connections and migrations log (at `info` or below).
    /// - Throws: ``StoreError`` with the redacted URL (never the password) and a one-line reason: the host
    ///   name cannot be resolved, the connection is refused or not answered within the connect timeout,
    ///   TLS or authentication fails, the database does not exist, or a migration fails.
    package static func open(
        _ location: PostgresLocation, logger: Logger = PostgresStore.silentLogger
    ) async throws(StoreError) -> PostgresStore {
        do {
            let connection = try await PostgresConnection.connect(
                configuration: try location.connectionConfiguration(), id: 0, logger: logger)
            do {
                try await PostgresMigrator.migrate(connection, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
            let client = PostgresClient(
                configuration: try location.clientConfiguration(), backgroundLogger: logger)
            return PostgresStore(location: location, client: client, logger: logger)
        } catch {
            throw StoreError(path: location.description, message: PostgresFailureReason.describe(error, location))
        }
    }

    /// Stops the pool and closes its connections; the database cannot be used afterwards.
    package func close() async {
        runner.cancel()
        await runner.value
    }

    /// The migrations applied to the store, in the order they were applied, read through the pool.
    ///
    /// - Throws: ``StoreError`` when the query fails.
    package func appliedMigrations() async throws(StoreError) -> [String] {
        do {
            let rows = try await client.query(
                "SELECT identifier FROM searchlight_migration ORDER BY applied_at, identifier", logger: logger)
            var identifiers: [String] = []
            for try await identifier in rows.decode(String.self) { identifiers.append(identifier) }
            return identifiers
        } catch {
            throw StoreError(path: location.description, message: PostgresFailureReason.describe(error, location))
        }
    }

    /// A logger that drops everything: the default, since only the executable bootstraps logging.
    package static let silentLogger = Logger(label: "searchlight.store.postgres") { _ in SwiftLogNoOpLogHandler() }
}
