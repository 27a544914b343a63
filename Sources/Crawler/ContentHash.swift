/// A 64-bit hash of a body, in hex: enough to tell whether one URL's content changed between
/// two fetches. It is not a defence against crafted collisions, and needs none: a collision only
/// costs one skipped re-extraction of the same URL.
///
/// Eight bytes per step (FNV-1a's multiply over 64-bit words, then a final avalanche), because a
/// byte-at-a-time loop over every page body showed in crawl profiles. The value is stored, so
/// this function must never change.
enum ContentHash {
    static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        let prime: UInt64 = 0x0000_0100_0000_01b3
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset + 8 <= buffer.count {
                let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = (hash ^ word) &* prime
                hash ^= hash >> 29
                offset += 8
            }
            while offset < buffer.count {
                hash = (hash ^ UInt64(buffer[offset])) &* prime
                offset += 1
            }
        }
        // Final avalanche (splitmix64's), so nearby inputs spread over all bits.
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
