import FixtureServer
import Testing

@testable import Markup

/// `UTF8WhiteSpace` and `collapsingWhitespace()`: the byte-level reading agrees with Unicode's
/// `White_Space` property for every scalar, and collapsing agrees with a scalar-by-scalar reference.
@Suite("White space read off UTF-8")
struct UTF8WhiteSpaceTests {
    @Test("Every scalar: white space by its bytes exactly when Unicode says White_Space")
    func everyScalar() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(scalar).utf8)
            let length = bytes.withUnsafeBufferPointer { UTF8WhiteSpace.length($0, at: 0) }
            let expected = scalar.properties.isWhitespace ? bytes.count : nil
            if length != expected { mismatches.append(value) }
            #expect(UTF8WhiteSpace.scalarLength(bytes[0]) == bytes.count)
        }
        #expect(mismatches.isEmpty, "scalars read wrongly: \(mismatches.prefix(10).map { String($0, radix: 16) })")
    }

    @Test(
        "Runs become one space, the ends are trimmed",
        arguments: [
            ("", ""),
            ("Plain title", "Plain title"),
            ("  Leading", "Leading"),
            ("Trailing \n", "Trailing"),
            ("Two  spaces", "Two spaces"),
            ("Tab\there", "Tab here"),
            ("Line\r\nbreak", "Line break"),
            ("No\u{A0}break\u{3000}ideographic", "No break ideographic"),
            ("\u{2028}\u{2029} \u{205F}", ""),
            (" \t\n ", ""),
            ("Crème  brûlée — straße", "Crème brûlée — straße"),
            ("Emoji 👩‍🍳\u{2003}cook", "Emoji 👩‍🍳 cook"),
            ("Zero\u{200B}width stays", "Zero\u{200B}width stays"),
        ])
    func table(input: String, expected: String) {
        #expect(input.collapsingWhitespace() == expected)
    }

    @Test("Random strings: the same as collapsing scalar by scalar")
    func randomAgainstReference() {
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "1", " ", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}",
            "\u{200A}", "\u{200B}", "\u{2028}", "\u{202F}", "\u{205F}", "\u{3000}", "é", "ß", "—", "中", "😀", "\u{301}",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            var input = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                input.append(alphabet.randomElement(using: &generator)!)
            }
            let text = String(input)
            let collapsed = text.collapsingWhitespace()
            let expected = Self.reference(text)
            #expect(collapsed == expected, "\(Array(text.unicodeScalars.map(\.value)))")
            if collapsed != expected { return }
        }
    }

    /// Scalar by scalar, with Unicode's own property.
    private static func reference(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                result.append(scalar)
                pendingSpace = false
            }
        }
        return String(result)
    }
}
