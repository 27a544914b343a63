internal import PostgresNIO

extension PostgresSchema {
    /// `v9-page-rendered`: `page.is_rendered`, as SQLite's `v16-page-rendered` adds it (a `BOOLEAN`, as the
    /// page's other flags).
    static let pageRendered = PostgresMigration(identifier: "v9-page-rendered") { connection, logger in
        try await connection.query(
            "ALTER TABLE page ADD COLUMN is_rendered BOOLEAN NOT NULL DEFAULT FALSE", logger: logger)
    }
}
