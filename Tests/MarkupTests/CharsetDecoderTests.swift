import FixtureServer
import Markup
import Testing

/// `CharsetDecoder.decode`: which source wins, and that the bytes become the right text.
@Suite("CharsetDecoder.decode")
struct CharsetDecoderTests {
    /// `<meta charset="ISO-8859-2">` then one byte, 0xB1: "ą" in ISO-8859-2, "±" in windows-1252.
    static let latin2Page: [UInt8] = Array("<meta charset=\"ISO-8859-2\"><p>".utf8) + [0xB1]

    @Test("a byte order mark wins over the header and the meta")
    func byteOrderMarkWins() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<meta charset=\"ISO-8859-2\"><p>é".utf8)
        let decoded = CharsetDecoder.decode(bytes, contentType: "text/html; charset=windows-1251")
        #expect(decoded.encoding == .utf8)
        #expect(decoded.source == .byteOrderMark)
        #expect(decoded.text == "<meta charset=\"ISO-8859-2\"><p>é")
        #expect(!decoded.hadInvalidBytes)
    }

    @Test("UTF-16 byte order marks pick the byte order, and the mark is not text")
    func utf16ByteOrderMarks() {
        let little: [UInt8] = [0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE]
        let big: [UInt8] = [0xFE, 0xFF, 0x00, 0x68, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00]
        for (bytes, encoding) in [(little, TextEncoding.utf16LE), (big, .utf16BE)] {
            let decoded = CharsetDecoder.decode(bytes, contentType: "text/html; charset=utf-8")
            #expect(decoded.encoding == encoding)
            #expect(decoded.source == .byteOrderMark)
            #expect(decoded.text == "hé😀")
            #expect(!decoded.hadInvalidBytes)
        }
    }

    @Test("the header's charset wins over the meta")
    func headerWinsOverMeta() {
        let decoded = CharsetDecoder.decode(Self.latin2Page, contentType: "text/html; charset=windows-1251")
        #expect(decoded.encoding == TextEncoding(label: "windows-1251"))
        #expect(decoded.source == .httpHeader)
        #expect(decoded.text.hasSuffix("<p>±"))
    }

    @Test(
        "a header with no usable charset falls back to the meta",
        arguments: ["text/html; charset=bogus", "text/html", "text/html; charset=", "text/html; charset=\"utf-8"]
    )
    func unusableHeaderFallsBackToMeta(contentType: String) {
        let decoded = CharsetDecoder.decode(Self.latin2Page, contentType: contentType)
        #expect(decoded.encoding == TextEncoding(label: "iso-8859-2"))
        #expect(decoded.source == .metaPrescan)
        #expect(decoded.text.hasSuffix("<p>ą"))
    }

    @Test("with nothing declared, the default encoding is used")
    func defaultEncoding() {
        let bytes = Array("<p>caf".utf8) + [0xE9]
        let decoded = CharsetDecoder.decode(bytes, contentType: nil)
        #expect(decoded.encoding == .windows1252)
        #expect(decoded.source == .defaultEncoding)
        #expect(decoded.text == "<p>café")
        let utf8Default = CharsetDecoder.decode(bytes, contentType: nil, defaultEncoding: .utf8)
        #expect(utf8Default.encoding == .utf8)
        #expect(utf8Default.text == "<p>caf\u{FFFD}")
        #expect(utf8Default.hadInvalidBytes)
    }

    @Test("latin1, ISO-8859-1 and ascii mean windows-1252", arguments: ["latin1", "ISO-8859-1", "ascii", "US-ASCII"])
    func latin1IsWindows1252(label: String) {
        let bytes: [UInt8] = Array("<meta charset=\"\(label)\">".utf8) + [0x80, 0x93, 0x94, 0x9F, 0x81, 0xE9]
        for decoded in [
            CharsetDecoder.decode(bytes, contentType: nil),
            CharsetDecoder.decode(bytes, contentType: "text/html; charset=\(label)"),
        ] {
            #expect(decoded.encoding == .windows1252)
            #expect(decoded.text.hasSuffix("€“”Ÿ\u{81}é"))
            #expect(!decoded.hadInvalidBytes)
        }
    }

    @Test("a meta that says UTF-16 means UTF-8; x-user-defined means windows-1252")
    func metaDeclarationsThatCannotBeRight() {
        let utf16 = CharsetDecoder.decode(Array("<meta charset=\"utf-16\"><p>é".utf8), contentType: nil)
        #expect(utf16.encoding == .utf8)
        #expect(utf16.text == "<meta charset=\"utf-16\"><p>é")
        let userDefined = CharsetDecoder.decode(Array("<meta charset=x-user-defined>".utf8) + [0x80], contentType: nil)
        #expect(userDefined.encoding == .windows1252)
        #expect(userDefined.text.hasSuffix("€"))
    }

    /// Pages written by `Fixtures/pages/charset/generate.py`, with the text it encoded.
    static let pages: [(file: String, contentType: String?, encoding: String, text: String)] = [
        ("shift_jis.html", nil, "Shift_JIS", "日本語のテキスト、東京都。カタカナ ｶﾀｶﾅ"),
        ("euc-jp.html", nil, "EUC-JP", "日本語のページ"),
        ("euc-kr.html", "text/html; charset=EUC-KR", "EUC-KR", "한국어 텍스트입니다"),
        ("gb18030.html", nil, "gb18030", "简体中文文本，€ 和 𠀀"),
        ("gbk.html", nil, "GBK", "简体中文网页"),
        ("windows-1251.html", nil, "windows-1251", "Привет, мир! «Ёлка» — №5"),
        ("iso-8859-2.html", nil, "ISO-8859-2", "Zażółć gęślą jaźń. Żluťoučký kůň"),
        ("koi8-r.html", nil, "KOI8-R", "Съешь же ещё этих мягких булок"),
    ]

    @Test("legacy-encoded pages decode to the text that was encoded", arguments: pages)
    func legacyPages(page: (file: String, contentType: String?, encoding: String, text: String)) throws {
        let bytes = try Fixtures.bytes("pages/charset/" + page.file)
        let decoded = CharsetDecoder.decode(bytes, contentType: page.contentType)
        #expect(decoded.encoding == TextEncoding(label: page.encoding))
        #expect(decoded.source == (page.contentType == nil ? .metaPrescan : .httpHeader))
        #expect(decoded.text.contains("<body><p>\(page.text)</p></body>"))
        #expect(!decoded.hadInvalidBytes)
    }

    @Test("a Big5 text decodes with a declared charset")
    func big5() throws {
        let bytes = try Fixtures.bytes("conformance/html5lib-encoding/chardet/test_big5.txt")
        let decoded = CharsetDecoder.decode(bytes, contentType: "text/plain; charset=big5")
        #expect(decoded.encoding == TextEncoding(label: "big5"))
        #expect(decoded.text.hasPrefix("老子《道德經》"))
        #expect(!decoded.hadInvalidBytes)
    }

    @Test("invalid UTF-8 becomes U+FFFD, one per maximal invalid subsequence")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0xE2, 0x82, 0x63, 0xF0, 0x9F, 0x98, 0x80, 0xE2, 0x82]
        let decoded = CharsetDecoder.decode(bytes, contentType: "text/html; charset=utf-8")
        #expect(decoded.text == "a\u{FFFD}b\u{FFFD}c😀\u{FFFD}")
        #expect(decoded.hadInvalidBytes)
        let valid = CharsetDecoder.decode(Array("a😀é".utf8), contentType: "text/html; charset=utf-8")
        #expect(valid.text == "a😀é")
        #expect(!valid.hadInvalidBytes)
    }

    @Test("invalid bytes in an iconv encoding become U+FFFD and decoding carries on")
    func invalidLegacyBytes() {
        // Shift_JIS: 0xFF is no character; 0x82 0x20 is a lead byte with an ASCII trail, which is read again;
        // a lead byte at the very end is cut off.
        let bytes: [UInt8] = [0x61, 0xFF, 0x82, 0xA0, 0x82, 0x20, 0x62, 0x82]
        let decoded = CharsetDecoder.decode(bytes, contentType: "text/html; charset=shift_jis")
        #expect(decoded.text == "a\u{FFFD}あ\u{FFFD} b\u{FFFD}")
        #expect(decoded.hadInvalidBytes)
    }

    @Test("UTF-16 without a byte order mark: odd bytes and lone surrogates become U+FFFD")
    func brokenUTF16() {
        let bytes: [UInt8] = [0x61, 0x00, 0x00, 0xD8, 0x62, 0x00, 0x63]
        let decoded = CharsetDecoder.decode(bytes, contentType: "text/html; charset=utf-16le")
        #expect(decoded.encoding == .utf16LE)
        #expect(decoded.text == "a\u{FFFD}b\u{FFFD}")
        #expect(decoded.hadInvalidBytes)
    }

    @Test("the replacement encoding turns a page into one U+FFFD")
    func replacementEncoding() {
        let decoded = CharsetDecoder.decode(Array("<meta charset=iso-2022-kr><p>hi".utf8), contentType: nil)
        #expect(decoded.encoding == .replacement)
        #expect(decoded.text == "\u{FFFD}")
        #expect(decoded.hadInvalidBytes)
    }

    @Test("an empty body decodes to empty text in every encoding")
    func emptyBody() {
        for encoding in TextEncoding.allEncodings {
            let decoded = CharsetDecoder.decode([], contentType: "text/html; charset=\(encoding.name)")
            #expect(decoded.text.isEmpty, "\(encoding)")
            #expect(!decoded.hadInvalidBytes, "\(encoding)")
        }
    }
}
