internal import PostgresNIO

extension PostgresSchema {
    /// `v4-api-token`: the counterpart of the SQLite migration `v12-api-token` (``StoredAPIToken``), translated
    /// by `v1-schema`'s rules.
    static let apiToken = PostgresMigration(identifier: "v4-api-token") { connection, logger in
        try await connection.query(
            """
            CREATE TABLE api_token (
                id TEXT COLLATE "C" PRIMARY KEY,
                secret_hash TEXT COLLATE "C" NOT NULL,
                bundles TEXT COLLATE "C" NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                revoked_at DOUBLE PRECISION
            )
            """, logger: logger)
    }
}
