internal import ASCIIText
import Crypto
import Foundation
import Store

/// The bearer tokens apps donate with (SPEC §6 "Tokens"): `slt_ID_SECRET`, where `ID` names the token in
/// `token list` and `token revoke`, and `SECRET` is 32 random bytes. The store keeps only the SHA-256 of
/// the whole token; a presented token is found by its id and its hash compared in constant time, so
/// neither a copy of the store nor the timing of a refusal gives a token away.
package enum DonationTokens {
    /// What every token starts with.
    static let prefix = "slt_"

    /// A new token for `bundles`, stored (only its hash) in `index`; returns its id and the token, which
    /// is shown once and never kept.
    /// - Throws: ``StoreError`` when the store fails.
    package static func create(for bundles: [String], in index: any PublicIndexStore, now: Date = Date())
        async throws(StoreError) -> (id: String, token: String)
    {
        var generator = SystemRandomNumberGenerator()
        let id = hex((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let token = prefix + id + "_" + base64URL(secret)
        try await index.insertToken(
            StoredAPIToken(id: id, secretHash: hash(token), bundles: bundles, createdAt: now.timeIntervalSince1970))
        return (id, token)
    }

    /// The valid (not revoked) stored token that `presented` is, or `nil`.
    /// - Throws: ``StoreError`` when the store fails.
    package static func verify(_ presented: String, in index: any PublicIndexStore) async throws(StoreError)
        -> StoredAPIToken?
    {
        guard let id = id(of: presented), let stored = try await index.token(id: id) else { return nil }
        guard constantTimeEquals(hash(presented), stored.secretHash), stored.revokedAt == nil else { return nil }
        return stored
    }

    /// The id part of a well-formed token, or `nil`.
    static func id(of token: String) -> String? {
        guard token.hasPrefix(prefix), token.utf8.count <= 128 else { return nil }
        let parts = token.dropFirst(prefix.count).split(separator: "_", maxSplits: 1)
        guard parts.count == 2, parts[0].utf8.count == 16, parts[0].utf8.allSatisfy(isHexDigit) else { return nil }
        return String(parts[0])
    }

    /// The SHA-256 of `token`'s UTF-8 bytes, lowercase hex.
    static func hash(_ token: String) -> String {
        hex(Array(SHA256.hash(data: Data(token.utf8))))
    }

    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(Hex.digit(byte >> 4, lowercase: true))
            text.append(Hex.digit(byte, lowercase: true))
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
