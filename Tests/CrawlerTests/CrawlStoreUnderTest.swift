import FixtureServer
import Foundation
import Store
import TestSupport
import Testing

/// A new, empty store of one engine, as the crawler sees it (``CrawlStore``), with a look into its tables
/// that does not go through the product's code.
struct CrawlStoreUnderTest: Sendable {
    let store: any CrawlStore
    private let sqlite: TemporaryStore?
    private let postgres: PostgresStore?
    private let postgresLocation: PostgresLocation?

    static func make(_ engine: StoreEngine) async throws -> CrawlStoreUnderTest {
        switch engine {
        case .sqlite:
            let storage = try TemporaryStore()
            return CrawlStoreUnderTest(store: try storage.open(), sqlite: storage, postgres: nil, postgresLocation: nil)
        case .postgres:
            let cluster = try await PostgresCluster.shared()
            let url = cluster.url(database: try await cluster.makeDatabase())
            guard case .postgres(let location) = try StoreLocation(option: url, environment: [:]) else {
                throw StoreError(path: url, message: "not a PostgreSQL URL")
            }
            let database = try await PostgresStore.open(location)
            return CrawlStoreUnderTest(
                store: database, sqlite: nil, postgres: database, postgresLocation: location)
        }
    }

    /// Another connection to the same store, as another process would open it (close it with ``close(_:)``).
    func openAnother() async throws -> any CrawlStore {
        if let sqlite { return try sqlite.open() }
        guard let postgresLocation else { throw StoreError(path: "", message: "no store") }
        return try await PostgresStore.open(postgresLocation)
    }

    /// Closes a connection made by ``openAnother()``.
    func close(_ store: any CrawlStore) async {
        await (store as? PostgresStore)?.close()
    }

    func cleanUp() async {
        sqlite?.cleanUp()
        await postgres?.close()
    }

    /// The rows of `sql` (written for both engines), each as its non-NULL columns' text.
    func rows(_ sql: String) async throws -> [[String: String]] {
        if let sqlite { return try CrawlerTests.rows(sqlite.path, sql) }
        guard let postgres else { return [] }
        let lines = try await postgres.rows("SELECT row_to_json(t)::text FROM (\(sql)) AS t")
        return try lines.map { row in
            guard case .text(let json) = row.first,
                let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            else { return [:] }
            var values: [String: String] = [:]
            for (column, value) in object where !(value is NSNull) {
                values[column] = (value as? String) ?? "\(value)"
            }
            return values
        }
    }
}
