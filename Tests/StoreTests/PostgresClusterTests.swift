import FixtureServer
import Foundation
import PostgresNIO
import TestSupport
import Testing

/// The throw-away cluster itself: it starts, serves databases, and leaves nothing behind when it stops.
@Suite("test PostgreSQL clusters")
struct PostgresClusterTests {
    @Test("a cluster starts on a loopback port, creates databases, stops and removes its folder")
    func startAndStop() async throws {
        let cluster = try await PostgresCluster.start()
        print("PostgreSQL test cluster started in \(cluster.startupDuration)")
        #expect(FileManager.default.fileExists(atPath: cluster.folder.appendingPathComponent("data/PG_VERSION").path))
        let first = try await cluster.makeDatabase()
        let second = try await cluster.makeDatabase()
        #expect(first != second)
        let database = TestDatabase(cluster: cluster, name: second)
        #expect(try await database.strings("SELECT current_database()::text") == [second])
        #expect(try await database.strings("SELECT current_setting('listen_addresses')") == ["127.0.0.1"])

        await cluster.stop()
        #expect(!FileManager.default.fileExists(atPath: cluster.folder.path))
        // Nothing listens on the port any more.
        await #expect(throws: (any Error).self) {
            try await database.strings("SELECT 1::text")
        }
        // Stopping again is harmless.
        await cluster.stop()
    }

    @Test("a password cluster refuses a wrong password and accepts the right one")
    func passwordCluster() async throws {
        let cluster = try await PostgresCluster.sharedWithPassword()
        let name = try await cluster.makeDatabase()
        let right = TestDatabase(cluster: cluster, name: name)
        #expect(try await right.strings("SELECT current_user::text") == [PostgresCluster.user])
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: cluster.port, username: PostgresCluster.user, password: "wrong",
            database: name, tls: .disable)
        let error = await #expect(throws: PSQLError.self) {
            try await PostgresConnection.connect(configuration: configuration, id: 2, logger: .silent)
        }
        #expect(error?.serverInfo?[.sqlState] == "28P01")  // invalid_password
    }

    @Test("the shared cluster is one cluster, started once however many tests ask at the same time")
    func sharedOnce() async throws {
        let clusters = try await withThrowingTaskGroup(of: PostgresCluster.self) { group in
            for _ in 0..<8 { group.addTask { try await PostgresCluster.shared() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(clusters.map { ObjectIdentifier($0) }).count == 1)
        print("PostgreSQL shared test cluster started in \(clusters[0].startupDuration)")
    }
}
