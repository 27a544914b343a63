import Foundation
import GRDB

@testable import Store

/// The schema of a new SQLite store after all its migrations, read from SQLite itself: what the PostgreSQL
/// schema is compared with.
struct SQLiteSchemaSnapshot {
    struct Column: Equatable {
        var name: String
        /// The declared type: INTEGER, REAL, TEXT or BLOB.
        var type: String
        /// NOT NULL, or part of the primary key (PostgreSQL keys are never NULL).
        var required: Bool
    }

    /// The ordinary tables' columns, by table (no FTS5 table, no shadow table, not GRDB's own).
    var tables: [String: [Column]] = [:]
    /// The FTS5 virtual tables.
    var fullTextTables: Set<String> = []
    /// The named indexes (`CREATE INDEX`), with their table.
    var indexes: [String: String] = [:]
    /// The column lists of each table's unique keys (primary key included), as `a,b`.
    var uniqueKeys: [String: Set<String>] = [:]
    /// The names in the `setting` table of a new store.
    var settings: Set<String> = []

    /// Creates a store in a temporary folder and reads its schema.
    static func ofNewStore() throws -> SQLiteSchemaSnapshot {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("store.sqlite").path)
        return try store.pool.read { db in try SQLiteSchemaSnapshot(db) }
    }

    private init(_ db: Database) throws {
        let masterRows = try Row.fetchAll(
            db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        for row in masterRows where row["type"] == "table" {
            let sql: String = row["sql"] ?? ""
            if sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") { fullTextTables.insert(row["name"]) }
        }
        for row in masterRows where row["type"] == "table" {
            let name: String = row["name"]
            let isShadow = fullTextTables.contains { name.hasPrefix("\($0)_") }
            guard !fullTextTables.contains(name), !isShadow, name != "grdb_migrations" else { continue }
            try read(table: name, db)
        }
        for row in masterRows where row["type"] == "index" && row["sql"] != nil {
            indexes[row["name"]] = row["tbl_name"]
        }
        settings = Set(try String.fetchAll(db, sql: "SELECT name FROM setting"))
    }

    private mutating func read(table: String, _ db: Database) throws {
        let columns = try Row.fetchAll(
            db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", arguments: [table])
        tables[table] = columns.map { row in
            Column(name: row["name"], type: row["type"], required: row["notnull"] == 1 || (row["pk"] as Int) > 0)
        }
        var keys: Set<String> = []
        let primaryKey = columns.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }
        if !primaryKey.isEmpty { keys.insert(primaryKey.map { $0["name"] as String }.joined(separator: ",")) }
        for index in try Row.fetchAll(db, sql: "SELECT name, \"unique\" FROM pragma_index_list(?)", arguments: [table])
        where index["unique"] == 1 {
            let names = try String.fetchAll(
                db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index["name"] as String])
            keys.insert(names.joined(separator: ","))
        }
        uniqueKeys[table] = keys
    }
}
