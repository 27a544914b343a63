/// A donation token as the store keeps it (SPEC §6 "Tokens"): never the token itself, only its SHA-256,
/// so a copy of the store cannot donate.
package struct StoredAPIToken: Sendable, Hashable {
    /// The token's public identifier (`token list`, `token revoke ID`); also part of the token itself.
    package var id: String
    /// The SHA-256 of the whole token, lowercase hex.
    package var secretHash: String
    /// The bundle identifiers the token may donate and delete for: sorted, distinct, never empty.
    package var bundles: [String]
    /// When it was created, in seconds since 1970.
    package var createdAt: Double
    /// When it was revoked; `nil` while it is valid.
    package var revokedAt: Double?

    package init(id: String, secretHash: String, bundles: [String], createdAt: Double, revokedAt: Double? = nil) {
        self.id = id
        self.secretHash = secretHash
        self.bundles = Array(Set(bundles)).sorted()
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// The stored form of ``bundles``: one identifier per line (an identifier holds no line break: the
    /// token command refuses one).
    var bundlesText: String { bundles.joined(separator: "\n") }

    static func bundles(fromText text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
