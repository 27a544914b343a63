import GRDB

/// What `searchlight serve` and `searchlight token` read and write besides search, report and export: the
/// recorded expiry, the store's health, and the donation tokens. The statements are the same on both engines
/// but for their placeholders.
extension PublicIndexStore {
    /// The expiry period (days) `publish` recorded in the store, `nil` when none was (the default applies).
    package func recordedExpiryDays() async throws(StoreError) -> Double? {
        let sql = "SELECT value FROM setting WHERE name = 'expiry_days'"
        switch self {
        case .sqlite(let store):
            return try await store.read { db in try String.fetchOne(db, sql: sql) }.flatMap(Double.init)
        case .postgres(let database):
            guard case .text(let value) = try await database.rows(sql).first?.first else { return nil }
            return Double(value)
        }
    }

    /// Reads a little of the store itself: on PostgreSQL the published items' table (a PostgreSQL store's
    /// searches read its replica, whose health is ``SearchSource/checkSearchable()``).
    package func checkReadable() async throws(StoreError) {
        switch self {
        case .sqlite: break
        case .postgres(let database):
            _ = try await database.rows("SELECT id FROM public_item ORDER BY id LIMIT 1")
        }
    }

    /// Stores a new token.
    /// - Throws: ``StoreError`` when the store fails, or the id is taken (a new random id is then due).
    package func insertToken(_ token: StoredAPIToken) async throws(StoreError) {
        let sql = "INSERT INTO api_token (id, secret_hash, bundles, created_at) VALUES "
        switch self {
        case .sqlite(let store):
            try await store.write { db in
                try db.execute(
                    sql: sql + "(?, ?, ?, ?)",
                    arguments: [token.id, token.secretHash, token.bundlesText, token.createdAt])
            }
        case .postgres(let database):
            _ = try await database.rows(
                sql + "($1, $2, $3, $4)",
                [.text(token.id), .text(token.secretHash), .text(token.bundlesText), .double(token.createdAt)])
        }
    }

    /// Every token, valid and revoked, oldest first.
    package func tokens() async throws(StoreError) -> [StoredAPIToken] {
        try await tokenRows(where: "", argument: nil)
    }

    /// The token `id`, valid or revoked, or `nil`.
    package func token(id: String) async throws(StoreError) -> StoredAPIToken? {
        try await tokenRows(where: "WHERE id = ", argument: id).first
    }

    /// Revokes the token `id` at `time`; returns `false` when no valid token has that id.
    package func revokeToken(id: String, at time: Double) async throws(StoreError) -> Bool {
        let sql = "UPDATE api_token SET revoked_at = "
        switch self {
        case .sqlite(let store):
            return try await store.write { db in
                try db.execute(sql: sql + "? WHERE id = ? AND revoked_at IS NULL", arguments: [time, id])
                return db.changesCount > 0
            }
        case .postgres(let database):
            let rows = try await database.rows(
                sql + "$1 WHERE id = $2 AND revoked_at IS NULL RETURNING id", [.double(time), .text(id)])
            return !rows.isEmpty
        }
    }

    private func tokenRows(where condition: String, argument: String?) async throws(StoreError) -> [StoredAPIToken] {
        let sql = "SELECT id, secret_hash, bundles, created_at, revoked_at FROM api_token \(condition)"
        let order = " ORDER BY created_at, id"
        switch self {
        case .sqlite(let store):
            let arguments: StatementArguments = argument.map { [$0] } ?? []
            let statement = sql + (argument == nil ? "" : "?") + order
            return try await store.read { db in
                try Row.fetchAll(db, sql: statement, arguments: arguments).map { row in
                    let bundles: String = row[2]
                    return StoredAPIToken(
                        id: row[0], secretHash: row[1], bundles: StoredAPIToken.bundles(fromText: bundles),
                        createdAt: row[3], revokedAt: row[4])
                }
            }
        case .postgres(let database):
            let values: [PostgresValue] = argument.map { [.text($0)] } ?? []
            let rows = try await database.rows(sql + (argument == nil ? "" : "$1") + order, values)
            return rows.compactMap { row in
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
}

extension PublicIndexStore {
    /// The same store, as `import` writes donations into it.
    package var donationStore: any DonationStore {
        switch self {
        case .sqlite(let store): store
        case .postgres(let database): database
        }
    }
}

extension PostgresValue {
    /// The text of a ``text(_:)`` value; `nil` for any other.
    var textValue: String? {
        if case .text(let text) = self { text } else { nil }
    }
}
