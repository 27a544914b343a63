import FixtureServer
import Foundation
import PostgresNIO
import Testing

@testable import Store

/// The PostgreSQL schema against the SQLite one, on a real server: same tables, columns, keys and indexes,
/// with the differences Docs/architecture.md lists and nothing else.
@Suite("PostgreSQL schema")
struct PostgresSchemaTests {
    /// What PostgreSQL has and SQLite has not: the generations a replica is synced by (its FTS5 tables have
    /// no counterpart: a PostgreSQL store is searched through a SQLite replica).
    static let generationColumns: Set = ["generation"]
    static let generationTables: Set = ["public_item_removal"]
    static let generationSettings: Set = [IndexGeneration.currentSetting, IndexGeneration.historySetting]
    /// SQLite columns no code reads any more, not carried over.
    static let droppedColumns: Set = ["public_item.title_ascii"]
    /// SQLite INTEGER columns that hold a flag: BOOLEAN on PostgreSQL.
    static let booleanColumns: Set = ["page.is_indexable", "page.is_gone", "page.is_rendered", "cluster.published"]
    /// The PostgreSQL types of SQLite's declared types.
    static let types = ["INTEGER": "bigint", "REAL": "double precision", "TEXT": "text", "BLOB": "bytea"]

    @Test("migrations create the counterpart of every SQLite table, column, key and index")
    func everyTableHasACounterpart() async throws {
        let sqlite = try SQLiteSchemaSnapshot.ofNewStore()
        let database = try await TestDatabase.make()
        let store = try await PostgresStore.open(try database.location)
        await store.close()
        let postgres = try await PostgresSchemaSnapshot.of(database)

        #expect(!sqlite.tables.isEmpty && sqlite.fullTextTables.count == 2)
        for (table, columns) in sqlite.tables.sorted(by: { $0.key < $1.key }) {
            guard let counterpart = postgres.tables[table] else {
                Issue.record("SQLite table \(table) has no PostgreSQL counterpart")
                continue
            }
            let expected = columns.filter { !Self.droppedColumns.contains("\(table).\($0.name)") }
            #expect(
                counterpart.map(\.name).filter { !Self.generationColumns.contains($0) } == expected.map(\.name),
                "columns of \(table)")
            for column in expected {
                guard let other = counterpart.first(where: { $0.name == column.name }) else { continue }
                let type =
                    Self.booleanColumns.contains("\(table).\(column.name)") ? "boolean" : Self.types[column.type]
                #expect(other.type == type, "\(table).\(column.name): \(column.type) became \(other.type)")
                #expect(other.required == column.required, "\(table).\(column.name) NOT NULL")
                if other.type == "text" { #expect(other.collation == "C", "\(table).\(column.name) collation") }
            }
            #expect(postgres.uniqueKeys[table] ?? [] == sqlite.uniqueKeys[table] ?? [], "unique keys of \(table)")
        }
        #expect(
            Set(postgres.tables.keys)
                == Set(sqlite.tables.keys).union(["searchlight_migration"]).union(Self.generationTables))
        for (index, table) in sqlite.indexes {
            #expect(postgres.indexes[index] == table, "index \(index) on \(table)")
        }
        #expect(postgres.settings.filter { !Self.generationSettings.contains($0) } == sqlite.settings)
    }

    @Test("every deleted item is recorded under the current generation, whoever deletes it")
    func removalsAreRecorded() async throws {
        let database = try await TestDatabase.make()
        let store = try await PostgresStore.open(try database.location)
        await store.close()
        try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
                VALUES (1, 'a', '\\x00', TRUE, '', '', ''), (2, 'b', '\\x00', TRUE, '', '', '')
                """, logger: .silent)
            try await connection.query(
                """
                INSERT INTO public_item (id, cluster_id, unique_identifier, title, engagement, boost, sources,
                    last_seen, published_at, item_json)
                VALUES (10, 1, 'https://a.example/', 'A', 1, 0, 'web', 0, 0, '{}'),
                       (20, 2, 'https://b.example/', 'B', 1, 0, 'web', 0, 0, '{}')
                """, logger: .silent)
            try await connection.query(
                "UPDATE setting SET value = '7' WHERE name = 'index_generation'", logger: .silent)
            try await connection.query("DELETE FROM public_item WHERE id = 10", logger: .silent)
            // A cluster's cascade too.
            try await connection.query("DELETE FROM cluster WHERE id = 2", logger: .silent)
        }
        #expect(
            try await database.strings(
                "SELECT generation || ':' || id FROM public_item_removal ORDER BY id") == ["7:10", "7:20"])
        #expect(
            try await database.strings("SELECT count(*)::text FROM pg_proc WHERE proname LIKE 'searchlight_%fold'") == [
                "0"
            ])
    }
}
