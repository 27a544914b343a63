/// 64-bit FNV-1a (http://www.isthe.com/chongo/tech/comp/fnv/): a hash that is the same in every process, on
/// every machine and in every version, unlike Swift's `Hasher`, which is seeded per process. For names and
/// fingerprints that are stored or compared across runs (cluster fingerprints, sitemap entries, a replica's
/// file name, a fixture's entity tag); not for anything an adversary must not collide.
package struct FNV1a: Sendable, Hashable {
    /// The hash of the bytes added so far (the offset basis when none was).
    package private(set) var value: UInt64

    @usableFromInline static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    @usableFromInline static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// A hash of nothing yet.
    @inlinable package init() {
        value = Self.offsetBasis
    }

    /// Adds one byte: XOR it in, then multiply by the prime.
    @inlinable package mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    /// Adds `bytes` in order.
    @inlinable package mutating func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        for byte in bytes { add(byte) }
    }

    /// The hash of `bytes`.
    @inlinable package static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hasher = FNV1a()
        hasher.add(bytes)
        return hasher.value
    }

    /// `value` as 16 lower-case hex digits, zeros first.
    package var hexDigits: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
