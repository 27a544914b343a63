import Foundation
import Testing

@testable import Index

@Suite struct DonationHasherTests {
    /// RFC 4231 test case 2 (HMAC-SHA-256, key "Jefe"), cut to 128 bits; the keyed state is reused
    /// between hashes, so a second hash must not see the first.
    @Test func isHMACSHA256CutTo128Bits() {
        let hasher = DonationHasher(salt: Array("Jefe".utf8))
        let expected = "5bdcc146bf60754e6a042426089575c7"
        let first = hasher.hash("what do ya want for nothing?")
        #expect(first.map { String(format: "%02x", $0) }.joined() == expected)
        _ = hasher.hash("something else")
        #expect(hasher.hash("what do ya want for nothing?") == first)
    }
}
