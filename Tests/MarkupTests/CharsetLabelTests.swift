import Markup
import Testing

/// `TextEncoding`'s WHATWG label table, and that every encoding really decodes on this system.
@Suite("TextEncoding labels")
struct CharsetLabelTests {
    @Test(
        "labels map to canonical names",
        arguments: [
            ("latin1", "windows-1252"), ("ISO-8859-1", "windows-1252"), ("ascii", "windows-1252"),
            ("iso_8859-1", "windows-1252"), ("utf8", "UTF-8"), (" \tUTF-8\n\u{0C}", "UTF-8"),
            ("unicode-1-1-utf-8", "UTF-8"), ("sjis", "Shift_JIS"), ("x-sjis", "Shift_JIS"),
            ("windows-31j", "Shift_JIS"), ("ks_c_5601-1987", "EUC-KR"), ("gb2312", "GBK"), ("GB18030", "gb18030"),
            ("big5-hkscs", "Big5"), ("x-mac-ukrainian", "x-mac-cyrillic"), ("tis-620", "windows-874"),
            ("iso-8859-9", "windows-1254"), ("logical", "ISO-8859-8-I"), ("utf-16", "UTF-16LE"),
            ("unicodefffe", "UTF-16BE"), ("hz-gb-2312", "replacement"), ("koi8-ru", "KOI8-U"),
        ]
    )
    func knownLabels(label: String, name: String) {
        #expect(TextEncoding(label: label)?.name == name)
    }

    @Test(
        "unknown labels give nil",
        arguments: [
            "", "   ", "utf-7", "utf-32", "bogus", "utf 8", "\u{2010}utf-8", "\u{212A}oi8-r", "latin-1", "x-user",
        ]
    )
    func unknownLabels(label: String) {
        #expect(TextEncoding(label: label) == nil)
    }

    @Test("the table has the Encoding Standard's 40 encodings, each named by its own name")
    func table() {
        #expect(TextEncoding.allEncodings.count == 40)
        #expect(Set(TextEncoding.allEncodings).count == 40)
        for encoding in TextEncoding.allEncodings {
            #expect(TextEncoding(label: encoding.name) == encoding, "\(encoding)")
            #expect(encoding.description == encoding.name)
        }
        #expect(TextEncoding(label: "latin1") == .windows1252)
    }

    /// Every ASCII-compatible encoding, by its canonical name.
    static var asciiCompatible: [TextEncoding] {
        TextEncoding.allEncodings.filter { ![TextEncoding.utf16LE, .utf16BE, .replacement].contains($0) }
    }

    @Test("every encoding decodes ASCII as ASCII, so glibc has every converter", arguments: asciiCompatible)
    func asciiRoundTrip(encoding: TextEncoding) {
        let html = "<!DOCTYPE html><p class=\"a\">Hello, world! 0123456789 ~</p>\n"
        let decoded = CharsetDecoder.decode(Array(html.utf8), contentType: "text/html; charset=\(encoding.name)")
        // If iconv_open had failed, the decoder would have fallen back to windows-1252 and said so.
        #expect(decoded.encoding == encoding)
        #expect(decoded.text == html)
        #expect(!decoded.hadInvalidBytes)
    }

    @Test(
        "a character beyond ASCII in each iconv-decoded family",
        arguments: [
            ("IBM866", [0x80], "А"), ("ISO-8859-5", [0xB0], "А"), ("ISO-8859-7", [0xE1], "α"),
            ("ISO-8859-8-I", [0xE0], "א"), ("ISO-8859-15", [0xA4], "€"), ("KOI8-U", [0xAE], "ў"),
            ("macintosh", [0x80], "Ä"), ("windows-874", [0xA1], "ก"), ("windows-1250", [0x8A], "Š"),
            ("windows-1256", [0xC7], "ا"), ("x-mac-cyrillic", [0x80], "А"), ("EUC-JP", [0xAD, 0xA1], "①"),
            ("ISO-2022-JP", [0x1B, 0x24, 0x42, 0x24, 0x22, 0x1B, 0x28, 0x42], "あ"),
            ("ISO-2022-JP", [0x1B, 0x28, 0x49, 0x31, 0x1B, 0x28, 0x42], "ｱ"), ("Shift_JIS", [0x87, 0x40], "①"),
            ("EUC-KR", [0xB0, 0xA1], "가"), ("EUC-KR", [0x81, 0x41], "갂"), ("GBK", [0x81, 0x30, 0x81, 0x30], "\u{80}"),
            ("Big5", [0xA4, 0x40], "一"),
            // Two code points for one Big5-HKSCS pair; glibc holds the first back until the end-of-input flush.
            ("Big5", [0xA4, 0x40, 0x88, 0x62], "一\u{CA}\u{304}"),
        ] as [(String, [UInt8], String)]
    )
    func legacyCharacters(name: String, bytes: [UInt8], expected: String) throws {
        let encoding = try #require(TextEncoding(label: name))
        let decoded = CharsetDecoder.decode(Array("x".utf8) + bytes, contentType: "text/html; charset=\(name)")
        #expect(decoded.encoding == encoding)
        #expect(decoded.text == "x" + expected)
        #expect(!decoded.hadInvalidBytes)
    }
}
