import Testing

@testable import Markup

/// `PackedName`: the key the page walk looks element names up by, read off a C string or built from a
/// Swift string, the same for the same name and different for different ones.
@Suite("Packed element names")
struct PackedNameTests {
    private static func packed(cString name: String) -> PackedName? {
        Array(name.utf8 + [0]).withUnsafeBufferPointer { PackedName(cString: $0.baseAddress!) }
    }

    @Test(
        "Read off a C string as built from the name, up to 16 bytes",
        arguments: ["a", "br", "meta", "script", "noscript", "blockquote", "figcaption", "abcdefghijklmnop", ""])
    func sameBothWays(name: String) {
        #expect(Self.packed(cString: name) == PackedName(name.utf8))
        #expect(Self.packed(cString: name) != nil)
    }

    @Test("A name longer than 16 bytes does not pack")
    func tooLong() {
        #expect(Self.packed(cString: "abcdefghijklmnopq") == nil)
        #expect(PackedName("my-product-gallery".utf8) == nil)
    }

    @Test("Different names, different keys: prefixes, the eighth and ninth byte, the last")
    func distinct() {
        let names = ["a", "ab", "abbr", "abcdefgh", "abcdefghi", "abcdefgi", "abcdefghijklmnop", "abcdefghijklmnoq"]
        let keys = names.compactMap { PackedName($0.utf8) }
        #expect(keys.count == names.count)
        #expect(Set(keys).count == names.count)
    }
}
