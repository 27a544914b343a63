import PostgresNIO

/// The schema of a PostgreSQL store's database, read from the server's catalog.
struct PostgresSchemaSnapshot {
    struct Column: Equatable {
        var name: String
        var type: String
        var required: Bool
        /// The column's own collation, if one was given.
        var collation: String?
    }

    /// The tables' columns, by table.
    var tables: [String: [Column]] = [:]
    /// The indexes, with their table.
    var indexes: [String: String] = [:]
    /// The column lists of each table's unique indexes (primary key included), as `a,b`.
    var uniqueKeys: [String: Set<String>] = [:]
    /// The names in the `setting` table.
    var settings: Set<String> = []

    /// Reads the schema of `database`.
    static func of(_ database: TestDatabase) async throws -> PostgresSchemaSnapshot {
        try await database.withConnection { connection in
            var snapshot = PostgresSchemaSnapshot()
            let columns = try await connection.query(
                """
                SELECT table_name::text, column_name::text, data_type::text, is_nullable = 'NO', collation_name::text
                FROM information_schema.columns WHERE table_schema = current_schema()
                ORDER BY table_name, ordinal_position
                """, logger: .silent)
            for try await (table, name, type, required, collation) in columns.decode(
                (String, String, String, Bool, String?).self)
            {
                snapshot.tables[table, default: []].append(
                    Column(name: name, type: type, required: required, collation: collation))
            }
            let indexes = try await connection.query(
                "SELECT indexname::text, tablename::text FROM pg_indexes WHERE schemaname = current_schema()",
                logger: .silent)
            for try await (index, table) in indexes.decode((String, String).self) { snapshot.indexes[index] = table }
            let unique = try await connection.query(
                """
                SELECT t.relname::text, array_to_string(array(
                    SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY AS k (attnum, position)
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.position), ',')
                FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid
                JOIN pg_namespace n ON n.oid = t.relnamespace
                WHERE x.indisunique AND n.nspname = current_schema()
                """, logger: .silent)
            for try await (table, key) in unique.decode((String, String).self) {
                snapshot.uniqueKeys[table, default: []].insert(key)
            }
            let settings = try await connection.query("SELECT name FROM setting", logger: .silent)
            for try await name in settings.decode(String.self) { snapshot.settings.insert(name) }
            return snapshot
        }
    }
}
