/// The donation tokens' part of the storage API (`searchlight token`, `serve`'s `POST /api/donations`,
/// SPEC §6): one implementation per engine, `SQLite/SQLiteStore+Tokens` and `Postgres/PostgresStore+Tokens`,
/// the same rows on both. The store keeps a token's hash, never its secret.
package protocol TokenStore: Sendable {
    /// Stores a new token.
    /// - Throws: ``StoreError`` when the store fails, or the id is taken (a new random id is then due).
    func insertToken(_ token: StoredAPIToken) async throws(StoreError)

    /// Every token, valid and revoked, oldest first.
    func tokens() async throws(StoreError) -> [StoredAPIToken]

    /// The token `id`, valid or revoked, or `nil`.
    func token(id: String) async throws(StoreError) -> StoredAPIToken?

    /// Revokes the token `id` at `time`; returns `false` when no valid token has that id.
    func revokeToken(id: String, at time: Double) async throws(StoreError) -> Bool
}

extension StoredAPIToken {
    /// The statement both engines read tokens with, `condition` (a `WHERE` clause or nothing) before the order.
    static func selectSQL(where condition: String) -> String {
        "SELECT id, secret_hash, bundles, created_at, revoked_at FROM api_token \(condition) ORDER BY created_at, id"
    }
}
