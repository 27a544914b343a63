import GRDB

extension SQLiteStore {
    /// `api_token`: the donation tokens (``StoredAPIToken``), one row each, kept after revocation so
    /// `token list` shows when.
    static func registerTokenSchema(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12-api-token") { db in
            try db.execute(
                sql: """
                    CREATE TABLE api_token (
                        id TEXT PRIMARY KEY,
                        secret_hash TEXT NOT NULL,
                        bundles TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        revoked_at REAL
                    )
                    """)
        }
    }
}
