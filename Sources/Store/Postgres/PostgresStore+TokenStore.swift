extension PostgresStore: TokenStore {
    package func insertToken(_ token: StoredAPIToken) async throws(StoreError) {
        _ = try await rows(
            "INSERT INTO api_token (id, secret_hash, bundles, created_at) VALUES ($1, $2, $3, $4)",
            [.text(token.id), .text(token.secretHash), .text(token.bundlesText), .double(token.createdAt)])
    }

    package func tokens() async throws(StoreError) -> [StoredAPIToken] {
        try await tokenRows(StoredAPIToken.selectSQL(where: ""), [])
    }

    package func token(id: String) async throws(StoreError) -> StoredAPIToken? {
        try await tokenRows(StoredAPIToken.selectSQL(where: "WHERE id = $1"), [.text(id)]).first
    }

    package func revokeToken(id: String, at time: Double) async throws(StoreError) -> Bool {
        let rows = try await rows(
            "UPDATE api_token SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING id",
            [.double(time), .text(id)])
        return !rows.isEmpty
    }

    private func tokenRows(_ sql: String, _ values: [PostgresValue]) async throws(StoreError) -> [StoredAPIToken] {
        try await rows(sql, values).compactMap { row in
            guard row.count == 5, case .text(let id) = row[0], case .text(let hash) = row[1],
                case .text(let bundles) = row[2], case .double(let created) = row[3]
            else { return nil }
            // Anything but NULL is a revocation, whatever its type.
            var revoked: Double?
            switch row[4] {
            case .null: revoked = nil
            case .double(let time): revoked = time
            default: revoked = 0
            }
            return StoredAPIToken(
                id: id, secretHash: hash, bundles: StoredAPIToken.bundles(fromText: bundles), createdAt: created,
                revokedAt: revoked)
        }
    }
}
