import GRDB
import Items

/// What `searchlight serve` and `searchlight token` read and write besides search, report and export: one
/// published item, the store's health, and the donation tokens. The statements are the same on both
/// engines but for their placeholders.
extension PublicIndexStore {
    /// The JSON of the published item `uniqueIdentifier` (SPEC §6's item), or `nil`.
    package func publicItem(uniqueIdentifier: String) async throws(StoreError) -> String? {
        try await publicItems(uniqueIdentifiers: [uniqueIdentifier])[uniqueIdentifier]
    }

    /// The JSON of each published item of `uniqueIdentifiers` that exists (SPEC §6's item, put back together
    /// from its stored form, ``StoredItem``), by identifier, read with one statement (a search page's hits).
    package func publicItems(uniqueIdentifiers: [String]) async throws(StoreError) -> [String: String] {
        guard !uniqueIdentifiers.isEmpty else { return [:] }
        let sql = "SELECT unique_identifier, \(Store.publishedItemColumns) FROM public_item WHERE unique_identifier IN "
        switch self {
        case .sqlite(let store):
            let placeholders = "(" + Array(repeating: "?", count: uniqueIdentifiers.count).joined(separator: ",") + ")"
            let rows = try await store.read { db in
                try Row.fetchAll(db, sql: sql + placeholders, arguments: StatementArguments(uniqueIdentifiers))
                    .map { (row: Row) -> (String, String) in
                        (
                            row[0],
                            StoredItem.publishedJSON(
                                stored: row[1], title: row[2], description: row[3], keywords: row[4])
                        )
                    }
            }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        case .postgres(let database):
            let placeholders = "(" + (1...uniqueIdentifiers.count).map { "$\($0)" }.joined(separator: ",") + ")"
            var items: [String: String] = [:]
            for row in try await database.rows(sql + placeholders, uniqueIdentifiers.map { .text($0) }) {
                guard case .text(let identifier) = row[0], case .text(let stored) = row[1],
                    case .text(let title) = row[2]
                else { continue }
                items[identifier] = StoredItem.publishedJSON(
                    stored: stored, title: title, description: row[3].textValue, keywords: row[4].textValue)
            }
            return items
        }
    }

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

    /// Reads what a search reads, a little of each: the schema, the first published item (its row and its
    /// JSON) and a word's entry in the full-text indexes (on SQLite FTS5's word and gram indexes, on
    /// PostgreSQL the items' GIN index). Throws when any of it cannot be read: a store that answers
    /// `SELECT 1` may still have a file whose pages are not a database. A few page reads, however large
    /// the index.
    ///
    /// On SQLite the pages are read from the file, not from the connection's cache: pages cached while the
    /// file was sound prove nothing about it now (another program may have overwritten it, which WAL's
    /// change tracking does not see). When the check fails, every connection's cached pages are dropped, so
    /// searches read the file too and fail with it rather than answer from a store that is gone.
    package func checkSearchable() async throws(StoreError) {
        switch self {
        case .sqlite(let store):
            do {
                _ = try await store.read { db in
                    try db.execute(sql: "PRAGMA shrink_memory")
                    _ = try Row.fetchOne(db, sql: "SELECT id, item_json FROM public_item ORDER BY id LIMIT 1")
                    _ = try Int.fetchOne(
                        db, sql: "SELECT rowid FROM public_fts WHERE public_fts MATCH 'healthz' LIMIT 1")
                    _ = try Int.fetchOne(
                        db, sql: "SELECT rowid FROM public_grams WHERE public_grams MATCH 'ok' LIMIT 1")
                }
            } catch {
                store.pool.releaseMemoryEventually()
                throw error
            }
        case .postgres(let database):
            _ = try await database.rows("SELECT id, item_json FROM public_item ORDER BY id LIMIT 1")
            _ = try await database.rows(
                "SELECT id FROM public_item WHERE search_vector @@ 'healthz'::tsquery LIMIT 1")
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
