import FixtureServer
import TestSupport
import Testing

@testable import Markup

/// The byte-level `VisibleText` against a plain per-scalar reference (the implementation it
/// replaced for speed): same collapsing of every Unicode white-space scalar, same word joins
/// across text nodes and block breaks, same cut at the scalar limit.
@Suite("Visible text")
struct VisibleTextTests {
    /// The reference: per scalar, `Unicode.Scalar.Properties.isWhitespace`, a String result.
    struct Reference {
        let limit: Int
        var text = ""
        var count = 0
        var pendingSpace = false

        mutating func append(_ string: String) {
            for scalar in string.unicodeScalars {
                if scalar.properties.isWhitespace {
                    pendingSpace = true
                    continue
                }
                guard count < limit else { continue }
                let needed = pendingSpace && count > 0 ? 2 : 1
                pendingSpace = false
                guard count + needed <= limit else {
                    count = limit
                    continue
                }
                if needed == 2 { text.unicodeScalars.append(" ") }
                text.unicodeScalars.append(scalar)
                count += needed
            }
        }
    }

    static let pieces: [String] = [
        "word", "Wörter", "漢字", "🙂", "e\u{301}", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}",
        "\u{1680}", "\u{2000}", "\u{2005}", "\u{200A}", "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}",
        "\u{3000}", "\u{FEFF}", "a", "-", "x y",
    ]

    @Test("matches the per-scalar reference on random text, breaks and limits", arguments: [1, 2, 3, 7, 40, 20_000])
    func matchesReference(limit: Int) {
        var random = SeededRandom(seed: UInt64(limit))
        for _ in 0..<300 {
            var visible = VisibleText(limit: limit)
            var reference = Reference(limit: limit)
            for _ in 0..<Int(random.next() % 12) {
                if random.next() % 5 == 0 {
                    visible.breakWord(inMain: false)
                    reference.pendingSpace = true
                    continue
                }
                let node = (0..<Int(random.next() % 6)).map { _ in
                    Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
                }.joined()
                visible.append(node, inMain: false)
                reference.append(node)
            }
            #expect(visible.result == reference.text)
        }
    }
}
