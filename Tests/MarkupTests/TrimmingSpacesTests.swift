import Testing

@testable import Markup

/// `trimmingSpaces()`: ASCII white space off both ends, nothing else; multi-byte text at either end kept whole.
@Suite("Trimming ASCII white space")
struct TrimmingSpacesTests {
    @Test(
        "Only space, tab, CR, LF and FF are trimmed, and only at the ends",
        arguments: [
            ("https://example.com/a", "https://example.com/a"),
            ("  https://example.com/a\n", "https://example.com/a"),
            ("\t\r\n\u{0C} x \u{0C}\n\r\t", "x"),
            ("a b", "a b"),
            ("", ""),
            ("   ", ""),
            ("\n\t", ""),
            (" é", "é"),
            ("ü ", "ü"),
            ("  日本  ", "日本"),
            ("👍🏽\n", "👍🏽"),
            ("\u{00A0}x\u{00A0}", "\u{00A0}x\u{00A0}"),
            ("\u{2003}x", "\u{2003}x"),
            ("\u{0B}x\u{0B}", "\u{0B}x\u{0B}"),
        ])
    func trims(input: String, expected: String) {
        #expect(input.trimmingSpaces() == expected)
        #expect(input.trimmingSpaces().unicodeScalars.elementsEqual(expected.unicodeScalars))
    }

    @Test(
        "Split on ASCII white space only, as HTML splits token lists",
        arguments: [
            ("", [String]()),
            ("   ", []),
            ("og:title", ["og:title"]),
            ("schema:name  schema:alternateName", ["schema:name", "schema:alternateName"]),
            ("\tnofollow\nugc\r\u{0C}sponsored ", ["nofollow", "ugc", "sponsored"]),
            ("café crème", ["café", "crème"]),
            ("a\u{00A0}b", ["a\u{00A0}b"]),
            ("日本 👍🏽", ["日本", "👍🏽"]),
        ])
    func splits(input: String, expected: [String]) {
        #expect(input.splitOnSpaces().map(String.init) == expected)
    }
}
