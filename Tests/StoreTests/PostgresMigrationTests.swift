import FixtureServer
import Foundation
import PostgresNIO
import Testing

@testable import Store

/// Migrations on a real server: once each, however many processes open a new store at the same moment;
/// a failed one leaves nothing half-done.
@Suite("PostgreSQL migrations")
struct PostgresMigrationTests {
    @Test("opening a migrated store again applies nothing and keeps its data")
    func idempotent() async throws {
        let database = try await TestDatabase.make()
        let first = try await PostgresStore.open(try database.location)
        let applied = try await first.appliedMigrations()
        await first.close()
        #expect(applied == PostgresSchema.migrations.map(\.identifier))
        let salt = try await database.strings("SELECT value FROM setting WHERE name = 'salt'")
        #expect(salt.count == 1 && salt[0].count == 64 && salt[0].allSatisfy(\.isHexDigit))
        _ = try await database.withConnection { connection in
            try await connection.query("INSERT INTO pending_url VALUES ('k', 'https://a.example/', 1)", logger: .silent)
        }

        let again = try await database.withConnection { connection in
            try await PostgresMigrator.migrate(connection, logger: .silent)
        }
        #expect(again.isEmpty)
        let second = try await PostgresStore.open(try database.location)
        #expect(try await second.appliedMigrations() == applied)
        await second.close()
        #expect(try await database.strings("SELECT value FROM setting WHERE name = 'salt'") == salt)
        #expect(try await database.strings("SELECT url FROM pending_url") == ["https://a.example/"])
    }

    @Test("stores on different databases get different salts")
    func saltPerStore() async throws {
        var salts: Set<String> = []
        for _ in 0..<2 {
            let database = try await TestDatabase.make()
            await (try await PostgresStore.open(try database.location)).close()
            salts.formUnion(try await database.strings("SELECT value FROM setting WHERE name = 'salt'"))
        }
        #expect(salts.count == 2)
    }

    @Test("migrators that start together on a new store apply each migration once", arguments: 1...3)
    func concurrentMigrators(round: Int) async throws {
        let database = try await TestDatabase.make()
        let location = try database.location
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for index in 0..<6 {
                group.addTask {
                    let configuration = PostgresConnection.Configuration(
                        host: "127.0.0.1", port: location.port, username: location.user, password: nil,
                        database: location.database, tls: .disable)
                    let connection = try await PostgresConnection.connect(
                        configuration: configuration, id: index, logger: .silent)
                    do {
                        let applied = try await PostgresMigrator.migrate(connection, logger: .silent)
                        try await connection.close()
                        return applied
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        // Every migration was applied by exactly one of them.
        #expect(applied.sorted() == PostgresSchema.migrations.map(\.identifier).sorted())
        // The group collects in the order the migrators finish, not the order the migrations were applied in.
        #expect(try await database.strings("SELECT identifier FROM searchlight_migration").sorted() == applied.sorted())
        #expect(try await database.strings("SELECT name FROM setting WHERE name = 'salt'") == ["salt"])
    }

    @Test("a migration that fails rolls back whole and the next open retries it")
    func failedMigrationRollsBack() async throws {
        let database = try await TestDatabase.make()
        let good = PostgresMigration(identifier: "t1-good") { connection, logger in
            try await connection.query("CREATE TABLE kept (id BIGINT)", logger: logger)
        }
        let bad = PostgresMigration(identifier: "t2-bad") { connection, logger in
            try await connection.query("CREATE TABLE half_done (id BIGINT)", logger: logger)
            try await connection.query("SELECT * FROM no_such_table", logger: logger)
        }
        let fixed = PostgresMigration(identifier: "t2-bad") { connection, logger in
            try await connection.query("CREATE TABLE half_done (id BIGINT)", logger: logger)
        }
        await #expect(throws: (any Error).self) {
            try await database.withConnection { connection in
                try await PostgresMigrator.migrate(connection, migrations: [good, bad], logger: .silent)
            }
        }
        #expect(try await database.strings("SELECT identifier FROM searchlight_migration") == ["t1-good"])
        #expect(try await database.strings("SELECT count(*)::text FROM pg_class WHERE relname = 'half_done'") == ["0"])
        let applied = try await database.withConnection { connection in
            try await PostgresMigrator.migrate(connection, migrations: [good, fixed], logger: .silent)
        }
        #expect(applied == ["t2-bad"])
    }
}
