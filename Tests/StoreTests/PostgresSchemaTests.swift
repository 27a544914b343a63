import FixtureServer
import Foundation
import PostgresNIO
import Testing

@testable import Store

/// The PostgreSQL schema against the SQLite one, on a real server: same tables, columns, keys and indexes,
/// with the differences Docs/architecture.md lists and nothing else.
@Suite("PostgreSQL schema")
struct PostgresSchemaTests {
    /// The FTS5 tables, and the `public_item` column that takes each one's place.
    static let fullTextCounterparts = ["public_fts": "search_vector", "public_grams": "search_grams"]
    /// SQLite columns no code reads any more, not carried over.
    static let droppedColumns: Set = ["public_item.title_ascii"]
    /// SQLite INTEGER columns that hold a flag: BOOLEAN on PostgreSQL.
    static let booleanColumns: Set = ["page.is_indexable", "page.is_gone", "cluster.published"]
    /// The PostgreSQL types of SQLite's declared types.
    static let types = ["INTEGER": "bigint", "REAL": "double precision", "TEXT": "text", "BLOB": "bytea"]

    @Test("migrations create the counterpart of every SQLite table, column, key and index")
    func everyTableHasACounterpart() async throws {
        let sqlite = try SQLiteSchemaSnapshot.ofNewStore()
        let database = try await TestDatabase.make()
        let store = try await PostgresDatabase.open(try database.location)
        await store.close()
        let postgres = try await PostgresSchemaSnapshot.of(database)

        #expect(!sqlite.tables.isEmpty && sqlite.fullTextTables.count == 2)
        for table in sqlite.fullTextTables {
            let column = try #require(Self.fullTextCounterparts[table], "FTS5 table \(table) has no counterpart")
            let vector = postgres.tables["public_item"]?.first { $0.name == column }
            #expect(vector?.type == "tsvector", "\(table) → public_item.\(column)")
        }
        for (table, columns) in sqlite.tables.sorted(by: { $0.key < $1.key }) {
            guard let counterpart = postgres.tables[table] else {
                Issue.record("SQLite table \(table) has no PostgreSQL counterpart")
                continue
            }
            let expected = columns.filter { !Self.droppedColumns.contains("\(table).\($0.name)") }
            let extra = Set(Self.fullTextCounterparts.values)
            #expect(
                counterpart.map(\.name).filter { !extra.contains($0) } == expected.map(\.name),
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
        #expect(Set(postgres.tables.keys) == Set(sqlite.tables.keys).union(["searchlight_migration"]))
        for (index, table) in sqlite.indexes {
            #expect(postgres.indexes[index] == table, "index \(index) on \(table)")
        }
        #expect(postgres.settings == sqlite.settings)
    }

    @Test("the publisher writes the full-text vector, weighted title, description, keywords; fold functions exist")
    func searchVector() async throws {
        let database = try await TestDatabase.make()
        let store = try await PostgresDatabase.open(try database.location)
        await store.close()
        let ranked = try await database.withConnection { connection in
            try await connection.query(
                """
                INSERT INTO cluster (id, key, fingerprint, published, reason, matched_by, members)
                VALUES (1, 'a', '\\x00', TRUE, '', '', ''), (2, 'b', '\\x00', TRUE, '', '', '')
                """, logger: .silent)
            try await connection.query(
                """
                INSERT INTO public_item (id, cluster_id, unique_identifier, title, description, keywords, engagement,
                    boost, sources, last_seen, published_at, item_json, search_vector)
                VALUES (10, 1, 'https://a.example/', 'Lemon tart', 'A sharp dessert.', 'baking', 1, 0, 'web', 0, 0, '{}',
                        'lemon:1A tart:2A a:4B sharp:5B dessert:6B baking:8C'),
                       (20, 2, 'https://b.example/', 'Apple pie', 'Lemons on the side.', NULL, 1, 0, 'web', 0, 0, '{}',
                        'apple:1A pie:2A lemons:4B on:5B the:6B side:7B')
                """, logger: .silent)
            let rows = try await connection.query(
                """
                SELECT id FROM public_item WHERE search_vector @@ to_tsquery('simple', 'lemon:*')
                ORDER BY ts_rank(search_vector, to_tsquery('simple', 'lemon:*')) DESC
                """, logger: .silent)
            var ids: [Int] = []
            for try await id in rows.decode(Int.self) { ids.append(id) }
            return ids
        }
        // The title match (weight A) ranks above the description match (weight B).
        #expect(ranked == [10, 20])
        #expect(
            try await database.strings("SELECT id::text FROM public_item WHERE search_vector @@ 'baking'") == ["10"])
        #expect(
            try await database.strings(
                "SELECT is_generated FROM information_schema.columns WHERE column_name = 'search_vector'") == ["NEVER"])
        #expect(
            try await database.strings(
                "SELECT searchlight_fold('Crème BRÛLÉE') || '|' || searchlight_casefold('Straße')")
                == ["creme brulee|strasse"])
    }
}
