import ASCIIText
import Testing

@Suite("RFC 3986 character classes")
struct URICharacterTests {
    /// RFC 3986 §2.3, written out.
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    /// RFC 3986 §2.2: gen-delims then sub-delims, written out.
    static let reserved = Set(":/?#[]@!$&'()*+,;=".utf8)

    @Test("isUnreserved is ALPHA / DIGIT / - . _ ~ and nothing else", arguments: UInt8.min...UInt8.max)
    func unreservedOfEveryByte(byte: UInt8) {
        #expect(URICharacter.isUnreserved(byte) == Self.unreserved.contains(byte))
    }

    @Test("isReserved is the gen-delims and sub-delims and nothing else", arguments: UInt8.min...UInt8.max)
    func reservedOfEveryByte(byte: UInt8) {
        #expect(URICharacter.isReserved(byte) == Self.reserved.contains(byte))
    }

    @Test(
        "isAllowed is unreserved or reserved: never a control, space, DEL, %, non-ASCII or \" < > \\ ^ ` { | }",
        arguments: UInt8.min...UInt8.max)
    func allowedOfEveryByte(byte: UInt8) {
        let excluded = byte <= 0x20 || byte >= 0x7F || Set("\"%<>\\^`{|}".utf8).contains(byte)
        #expect(URICharacter.isAllowed(byte) == !excluded)
        #expect(URICharacter.isAllowed(byte) == (Self.unreserved.contains(byte) || Self.reserved.contains(byte)))
    }

    @Test("the two classes are disjoint")
    func disjoint() {
        #expect(Self.unreserved.isDisjoint(with: Self.reserved))
        #expect((UInt8.min...UInt8.max).allSatisfy { !(URICharacter.isUnreserved($0) && URICharacter.isReserved($0)) })
    }
}
