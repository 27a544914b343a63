import ASCIIText
import Testing

@Suite("Percent-escape normalization with each module's rule")
struct PercentEscapeNormalizationTests {
    private static func normalized(
        _ text: String, _ form: PercentEscape.Form, keeping keeps: (UInt8, Int) -> Bool
    ) -> String {
        String(decoding: PercentEscape.normalized(Array(text.utf8), escapes: form, keeping: keeps), as: UTF8.self)
    }

    @Test(
        "keeping every byte: unreserved escapes decoded, others upper-cased, the rest untouched (canonical keys)",
        arguments: [
            ("/a%7eb", "/a~b"),
            ("/%41%2d%5F", "/A-_"),
            ("/a%2fb", "/a%2Fb"),
            ("/caf%c3%a9", "/caf%C3%A9"),
            ("/100%", "/100%"),
            ("/%G1/%4", "/%G1/%4"),
            ("/%%41", "/%A"),
            ("/raw space", "/raw space"),
        ])
    func keepingEverything(text: String, expected: String) {
        #expect(Self.normalized(text, .unreservedDecoded) { _, _ in true } == expected)
    }

    @Test(
        "keeping only URI characters: raw and escaped spellings agree, a stray % becomes %25 (crawl URLs)",
        arguments: [
            ("/a b", "/a%20b"),
            ("/a%20b", "/a%20b"),
            ("/a<b>", "/a%3Cb%3E"),
            ("/a%3cb%3E", "/a%3Cb%3E"),
            ("/café", "/caf%C3%A9"),
            ("/100%", "/100%25"),
            ("/%G1", "/%25G1"),
            ("/%4", "/%254"),
            ("/a%7Eb?q=%2a&x=*", "/a~b?q=%2A&x=*"),
        ])
    func keepingURICharacters(text: String, expected: String) {
        #expect(Self.normalized(text, .unreservedDecoded) { byte, _ in URICharacter.isAllowed(byte) } == expected)
    }

    @Test(
        "upper-casing only: no escape is decoded, not even an unreserved one (universal-link patterns)",
        arguments: [
            ("/a%7eb", "/a%7Eb"),
            ("/caf%c3%a9", "/caf%C3%A9"),
            ("/%g1%4", "/%g1%4"),
            ("/%%6161", "/%%6161"),
        ])
    func upperCasingOnly(text: String, expected: String) {
        #expect(Self.normalized(text, .uppercased) { _, _ in true } == expected)
    }

    @Test("the rule sees each byte's offset in the input, so a position can matter (a robots rule's final $)")
    func ruleSeesOffsets() {
        let text = "/a$b$"
        let keepsFinalDollar: (UInt8, Int) -> Bool = { byte, offset in
            byte == UInt8(ascii: "$") ? offset == text.utf8.count - 1 : URICharacter.isAllowed(byte)
        }
        #expect(Self.normalized(text, .unreservedDecoded, keeping: keepsFinalDollar) == "/a%24b$")
    }

    @Test(
        "with a rule that refuses % and keeps unreserved bytes, normalizing twice changes nothing",
        arguments: [
            "/a b%7e%2f%", "%%6161", "/caf%c3%a9?%G1=%4", "%25%2525",
            String(decoding: UInt8.min...UInt8.max, as: UTF8.self),
        ])
    func idempotent(text: String) {
        let keeps: (UInt8, Int) -> Bool = { byte, _ in URICharacter.isAllowed(byte) }
        for form in [PercentEscape.Form.unreservedDecoded, .uppercased] {
            let once = Self.normalized(text, form, keeping: keeps)
            #expect(Self.normalized(once, form, keeping: keeps) == once)
        }
    }

    @Test(
        "normalizing never changes the bytes the text decodes to, when the rule keeps %",
        arguments: UInt8.min...UInt8.max)
    func decodingIsPreserved(byte: UInt8) {
        var escaped: [UInt8] = []
        PercentEscape.append(byte, to: &escaped)
        let lowered = escaped.map { (UInt8(ascii: "A")...UInt8(ascii: "F")).contains($0) ? $0 + 32 : $0 }
        for input in [escaped, lowered] {
            let output = PercentEscape.normalized(input, escapes: .unreservedDecoded) { _, _ in true }
            #expect(PercentEscape.decoded(output) == [byte])
            #expect(output == (URICharacter.isUnreserved(byte) ? [byte] : escaped))
        }
    }
}
