import ASCIIText
import Testing

@Suite("Percent escapes: reading, writing, decoding")
struct PercentEscapeTests {
    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(
        "byte(in:at:) reads a % with two hex digits of either case, and nothing else",
        arguments: [
            ("%41", 0, 0x41),
            ("%c3", 0, 0xC3),
            ("%C3", 0, 0xC3),
            ("%fF", 0, 0xFF),
            ("%00", 0, 0x00),
            ("a%2Fb", 1, 0x2F),
            ("a%2Fb", 0, nil),  // not a %
            ("%G1", 0, nil),
            ("%1G", 0, nil),
            ("%4", 0, nil),  // one digit, then the end
            ("%", 0, nil),  // % at the end
            ("x%", 1, nil),
            ("%%41", 0, nil),  // the first % starts no escape; the second does
            ("%%41", 1, 0x41),
            ("% 41", 0, nil),
            ("%41", 3, nil),  // past the end
            ("%41", -1, nil),
        ] as [(String, Int, UInt8?)])
    func escapedByte(text: String, index: Int, expected: UInt8?) {
        #expect(PercentEscape.byte(in: Self.bytes(text), at: index) == expected)
    }

    @Test("append writes % and two upper-case digits that read back as the byte", arguments: UInt8.min...UInt8.max)
    func appendEveryByte(byte: UInt8) {
        var output: [UInt8] = []
        PercentEscape.append(byte, to: &output)
        #expect(output.count == 3)
        #expect(output.allSatisfy { !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) })
        #expect(PercentEscape.byte(in: output, at: 0) == byte)
    }

    @Test(
        "decoded decodes every valid escape and keeps a % that starts none, with what follows it",
        arguments: [
            ("plain", "plain"),
            ("%41%42c", "ABc"),
            ("caf%C3%A9", "café"),
            ("caf%c3%a9", "café"),
            ("100%", "100%"),
            ("%4", "%4"),
            ("a%G1b", "a%G1b"),
            ("%%41", "%A"),
            ("%2541", "%41"),  // decoded once only
            ("%", "%"),
            ("", ""),
        ])
    func lenientDecoding(text: String, expected: String) {
        #expect(PercentEscape.decoded(Self.bytes(text)) == Self.bytes(expected))
    }

    @Test(
        "strictlyDecoded refuses any % that starts no escape",
        arguments: [
            ("plain", "plain"),
            ("%41%42c", "ABc"),
            ("caf%c3%a9", "café"),
            ("%2541", "%41"),
            ("", ""),
            ("%G1", nil),
            ("%4", nil),
            ("a%", nil),
            ("%", nil),
            ("%%41", nil),
            ("ok%41%zz", nil),
        ] as [(String, String?)])
    func strictDecoding(text: String, expected: String?) {
        #expect(PercentEscape.strictlyDecoded(Self.bytes(text)) == expected.map(Self.bytes))
    }

    @Test("strict decoding passes NUL and invalid UTF-8 through: checking them is the caller's")
    func strictDecodingKeepsAnyByte() {
        #expect(PercentEscape.strictlyDecoded(Self.bytes("a%00%FF")) == [0x61, 0x00, 0xFF])
    }

    @Test(
        "encoded escapes exactly the bytes the rule refuses",
        arguments: [
            ("a b/c", "a%20b%2Fc"),
            ("café", "caf%C3%A9"),
            ("100%", "100%25"),
            ("~-._", "~-._"),
            ("", ""),
        ])
    func encoding(text: String, expected: String) {
        #expect(PercentEscape.encoded(text.utf8, keeping: URICharacter.isUnreserved) == Self.bytes(expected))
    }

    /// Texts for the round trips: escapes, stray `%`, controls, non-ASCII, and every byte once.
    static let roundTripInputs: [[UInt8]] = [
        [], bytes("plain"), bytes("a b"), bytes("100%"), bytes("%41"), bytes("%%"), bytes("%G1%4%"),
        bytes("caf\u{E9} \u{1F600}\t\n"), Array(UInt8.min...UInt8.max),
    ]

    @Test(
        "decoding what encoded wrote gives the bytes back, leniently and strictly",
        arguments: PercentEscapeTests.roundTripInputs)
    func encodeDecodeRoundTrip(input: [UInt8]) {
        for keeps in [URICharacter.isUnreserved, URICharacter.isAllowed, { _ in false }] as [(UInt8) -> Bool] {
            let encoded = PercentEscape.encoded(input, keeping: keeps)
            #expect(PercentEscape.decoded(encoded) == input)
            #expect(PercentEscape.strictlyDecoded(encoded) == input)
        }
    }
}
