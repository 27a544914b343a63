import GRDB

extension SQLiteStore: TokenStore {
    package func insertToken(_ token: StoredAPIToken) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO api_token (id, secret_hash, bundles, created_at) VALUES (?, ?, ?, ?)",
                arguments: [token.id, token.secretHash, token.bundlesText, token.createdAt])
        }
    }

    package func tokens() async throws(StoreError) -> [StoredAPIToken] {
        try await tokenRows(StoredAPIToken.selectSQL(where: ""), arguments: [])
    }

    package func token(id: String) async throws(StoreError) -> StoredAPIToken? {
        try await tokenRows(StoredAPIToken.selectSQL(where: "WHERE id = ?"), arguments: [id]).first
    }

    package func revokeToken(id: String, at time: Double) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE api_token SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", arguments: [time, id])
            return db.changesCount > 0
        }
    }

    private func tokenRows(_ sql: String, arguments: StatementArguments) async throws(StoreError) -> [StoredAPIToken] {
        try await read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let bundles: String = row[2]
                return StoredAPIToken(
                    id: row[0], secretHash: row[1], bundles: StoredAPIToken.bundles(fromText: bundles),
                    createdAt: row[3], revokedAt: row[4])
            }
        }
    }
}
