import FixtureServer
import Foundation
import Logging
import PostgresNIO
import Store
import TestSupport
import Testing

/// A fresh database on the test process's shared cluster, with the location that names it.
struct TestDatabase {
    var cluster: PostgresCluster
    var name: String

    /// A new empty database on the shared cluster (trust authentication).
    static func make() async throws -> TestDatabase {
        let cluster = try await PostgresCluster.shared()
        return TestDatabase(cluster: cluster, name: try await cluster.makeDatabase())
    }

    /// The store location of this database.
    var location: PostgresLocation {
        get throws {
            guard case .postgres(let location) = try StoreLocation(parsing: cluster.url(database: name)) else {
                throw TestFailure("\(cluster.url(database: name)) is not a PostgreSQL location")
            }
            return location
        }
    }

    /// Runs `body` on a plain connection to the database, for looking at what the store made.
    func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: cluster.port, username: PostgresCluster.user, password: cluster.password,
            database: name, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: .silent)
        do {
            let result = try await body(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The values of a one-column query, as text.
    func strings(_ query: PostgresQuery) async throws -> [String] {
        try await withConnection { connection in
            var values: [String] = []
            for try await value in try await connection.query(query, logger: .silent).decode(String.self) {
                values.append(value)
            }
            return values
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Logger {
    /// A logger that drops everything.
    static let silent = Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }
}
