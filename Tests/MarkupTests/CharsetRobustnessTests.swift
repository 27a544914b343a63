import FixtureServer
import Markup
import TestSupport
import Testing

/// Large pages and hostile bytes: decoding stays fast, never crashes, never hangs.
@Suite("CharsetDecoder robustness")
struct CharsetRobustnessTests {
    /// A windows-1252 page of about `size` bytes: markup and text with every 0x80–0xFF byte.
    static func windows1252Page(size: Int, head: String) -> [UInt8] {
        let line: [UInt8] = Array("<p class=\"x\">caf".utf8) + Array(0x80...0xFF) + Array("</p>\n".utf8)
        var page = Array(head.utf8)
        page.reserveCapacity(size + line.count)
        while page.count < size { page += line }
        return page
    }

    @Test(
        "a 5 MB windows-1252 page decodes in reasonable time",
        arguments: ["<!DOCTYPE html><meta charset=windows-1252>", "<!DOCTYPE html>"]
    )
    func largePage(head: String) {
        let page = Self.windows1252Page(size: 5 * 1024 * 1024, head: head)
        let clock = ContinuousClock()
        var decoded: DecodedText?
        let elapsed = clock.measure {
            decoded = CharsetDecoder.decode(page, contentType: nil)
        }
        // The second head declares nothing, so the whole page is also searched for a late <meta>.
        #expect(decoded?.encoding == .windows1252)
        #expect(
            decoded?.text.hasSuffix(
                "caf€\u{81}‚ƒ„…†‡ˆ‰Š‹Œ\u{8D}Ž\u{8F}\u{90}‘’“”•–—˜™š›œ\u{9D}žŸ\u{A0}¡¢£¤¥¦§¨©ª«¬\u{AD}®¯°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿ</p>\n"
            ) == true)
        // Generous for a debug build on two cores; a release build takes a few milliseconds.
        #expect(elapsed < .seconds(30), "took \(elapsed)")
    }

    @Test("a 5 MB Shift_JIS page decodes through iconv in reasonable time")
    func largeIconvPage() {
        // "日本語" in Shift_JIS, repeated, with an invalid byte every line.
        let line: [UInt8] = Array("<p>".utf8) + [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0xFF] + Array("</p>\n".utf8)
        var page: [UInt8] = []
        page.reserveCapacity(5 * 1024 * 1024 + line.count)
        while page.count < 5 * 1024 * 1024 { page += line }
        let clock = ContinuousClock()
        var decoded: DecodedText?
        let elapsed = clock.measure {
            decoded = CharsetDecoder.decode(page, contentType: "text/html; charset=Shift_JIS")
        }
        #expect(decoded?.text.hasPrefix("<p>日本語\u{FFFD}</p>\n<p>日本語\u{FFFD}</p>") == true)
        #expect(decoded?.hadInvalidBytes == true)
        #expect(elapsed < .seconds(30), "took \(elapsed)")
    }

    /// Random bytes; with `markupHeavy`, mostly the bytes the prescan reacts to.
    static func garbage(count: Int, seed: UInt64, markupHeavy: Bool) -> [UInt8] {
        var generator = SeededRandom(seed: seed)
        let alphabet = Array("<!-/?>=\"' \tmetaMETAcharsetCHARSEThttp-equivcontentscript;utf-8".utf8) + [0, 0x80, 0xFF]
        return (0..<count).map { _ in
            markupHeavy ? alphabet.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0...255, using: &generator)
        }
    }

    @Test(
        "garbage never crashes or hangs, whatever the declared encoding", arguments: [nil] + TextEncoding.allEncodings)
    func garbageInput(encoding: TextEncoding?) {
        let contentType = encoding.map { "text/html; charset=\($0.name)" }
        for seed in UInt64(1)...4 {
            for markupHeavy in [false, true] {
                let bytes = Self.garbage(count: 64 * 1024 + Int(seed), seed: seed, markupHeavy: markupHeavy)
                let decoded = CharsetDecoder.decode(bytes, contentType: contentType)
                #expect(encoding == nil || decoded.encoding == encoding)
                // Every byte yields at most a few UTF-8 bytes.
                #expect(decoded.text.utf8.count <= bytes.count * 4 + 3)
                _ = CharsetDecoder.prescan(bytes)
            }
        }
    }

    @Test("every short byte string decodes without trouble in the multi-byte encodings")
    func shortSequences() throws {
        let names = ["Shift_JIS", "EUC-JP", "ISO-2022-JP", "EUC-KR", "gb18030", "Big5", "UTF-8", "UTF-16BE"]
        for name in names {
            let encoding = try #require(TextEncoding(label: name))
            for first in UInt8(0x7E)...0xFF {
                for second: UInt8 in [0x00, 0x1B, 0x30, 0x40, 0x7F, 0x80, 0xA1, 0xFE, 0xFF] {
                    let bytes = [first, second, first]
                    let decoded = CharsetDecoder.decode(bytes, contentType: "text/html; charset=\(name)")
                    // FE FF and FF FE are byte order marks, which win over the header.
                    #expect(decoded.encoding == CharsetDecoder.byteOrderMark(of: bytes)?.encoding ?? encoding)
                    #expect(!decoded.text.isEmpty)
                }
            }
        }
    }
}
