/// A 64-bit FNV-1a hash of a body, in hex: enough to tell whether one URL's content
/// changed between two fetches (it is not a defence against crafted collisions, and
/// needs none: a collision only costs one skipped re-extraction of the same URL).
enum ContentHash {
    static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
