import StableHash
import Testing

/// The hash stored names and fingerprints depend on: FNV-1a's published 64-bit test vectors, so a change that
/// would rename every stored file or rewrite every cluster cannot pass unnoticed.
@Suite("FNV-1a, 64 bits")
struct FNV1aTests {
    /// From the FNV reference test suite (http://www.isthe.com/chongo/src/fnv/test_fnv.c).
    @Test(
        "the reference vectors",
        arguments: [
            ("", 0xcbf2_9ce4_8422_2325 as UInt64),
            ("a", 0xaf63_dc4c_8601_ec8c),
            ("foobar", 0x8594_4171_f739_67e8),
        ])
    func referenceVectors(text: String, hash: UInt64) {
        #expect(FNV1a.hash(text.utf8) == hash)
    }

    @Test("adding in pieces is adding the whole; hex digits are 16, zeros first")
    func pieces() {
        var hasher = FNV1a()
        hasher.add("foo".utf8)
        hasher.add(UInt8(ascii: "b"))
        hasher.add("ar".utf8)
        #expect(hasher.value == FNV1a.hash("foobar".utf8))
        #expect(hasher.hexDigits == "85944171f73967e8")
        #expect(FNV1a.hash([UInt8]()) == FNV1a().value)
        #expect(FNV1a().hexDigits.count == 16)
    }
}
