import Markup
import Testing

/// `CharsetDecoder.prescan`, the late-declaration search, XML declarations and `charset(fromContentType:)`,
/// beyond what the html5lib corpus covers.
@Suite("CharsetDecoder.prescan")
struct CharsetPrescanTests {
    /// A comment long enough to push what follows past the prescan's 1024 bytes.
    static let longComment = "<!--" + String(repeating: "x", count: 1100) + "-->"

    @Test("http-equiv and content in either order; content alone is not enough")
    func httpEquivPairs() {
        let declared = [
            #"<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">"#,
            #"<META CONTENT='text/html;charset=KOI8-R' HTTP-EQUIV='content-type'>"#,
        ]
        for html in declared {
            #expect(CharsetDecoder.prescan(Array(html.utf8)) == TextEncoding(label: "koi8-r"), "\(html)")
        }
        #expect(CharsetDecoder.prescan(Array(#"<meta content="text/html; charset=koi8-r">"#.utf8)) == nil)
    }

    @Test("an unknown charset label is skipped, and so is its element's content")
    func unknownLabels() {
        let html = #"<meta charset="bogus" http-equiv="content-type" content="charset=koi8-r"><meta charset=utf-8>"#
        #expect(CharsetDecoder.prescan(Array(html.utf8)) == .utf8)
    }

    @Test("only the first 1024 bytes are read")
    func prescanWindow() {
        let html = Self.longComment + "<meta charset=koi8-r>"
        #expect(CharsetDecoder.prescan(Array(html.utf8)) == nil)
        // A collection that is not an array works too, and a slice starting past the comment finds it.
        #expect(
            CharsetDecoder.prescan(Array(html.utf8)[Self.longComment.utf8.count...]) == TextEncoding(label: "koi8-r"))
    }

    @Test("a declaration past 1024 bytes is found as the tree builder would, and flagged late")
    func lateDeclaration() {
        let html = Self.longComment + "<title>x</title><meta charset=koi8-r><p>" + String(repeating: "y", count: 10)
        let decoded = CharsetDecoder.decode(Array(html.utf8), contentType: nil)
        #expect(decoded.encoding == TextEncoding(label: "koi8-r"))
        #expect(decoded.source == .metaPrescan)
        #expect(decoded.isLateDeclaration)
    }

    @Test(
        "past 1024 bytes, raw text and comments hide a <meta>",
        arguments: [
            "<script>var s = '<meta charset=koi8-r>';</script>",
            "<style>/* <meta charset=koi8-r> */</style>",
            "<textarea><meta charset=koi8-r></textarea>",
            "<TITLE><meta charset=koi8-r></title >",
            "<!-- <meta charset=koi8-r> -->",
            "<plaintext><meta charset=koi8-r>",
            "<script>never closed <meta charset=koi8-r>",
        ]
    )
    func lateDeclarationInRawText(fragment: String) {
        let decoded = CharsetDecoder.decode(Array((Self.longComment + fragment).utf8), contentType: nil)
        #expect(decoded.encoding == .windows1252)
        #expect(decoded.source == .defaultEncoding)
        #expect(!decoded.isLateDeclaration)
    }

    @Test("after a raw-text element ends, a late <meta> counts again")
    func lateDeclarationAfterScript() {
        let html = Self.longComment + "<script>'<meta charset=utf-8>'</SCRIPT><meta charset=koi8-r>"
        let decoded = CharsetDecoder.decode(Array(html.utf8), contentType: nil)
        #expect(decoded.encoding == TextEncoding(label: "koi8-r"))
        #expect(decoded.isLateDeclaration)
    }

    @Test("an XML declaration's encoding counts when no <meta> decides")
    func xmlDeclaration() {
        let cases: [(String, TextEncoding?)] = [
            (#"<?xml version="1.0" encoding="ISO-8859-2"?><html>"#, TextEncoding(label: "iso-8859-2")),
            ("<?xml version='1.0' encoding = 'utf-16'?>", .utf8),
            (#"<?xml version="1.0" encoding="ISO-8859-2"?><meta charset=koi8-r>"#, TextEncoding(label: "koi8-r")),
            (#"<?xml version="1.0" encoding=" ISO-8859-2"?>"#, nil),
            (#"<?XML version="1.0" encoding="ISO-8859-2"?>"#, nil),
            (#" <?xml version="1.0" encoding="ISO-8859-2"?>"#, nil),
            (#"<?xml version="1.0"?><p encoding="ISO-8859-2">"#, nil),
        ]
        for (html, expected) in cases {
            #expect(CharsetDecoder.prescan(Array(html.utf8)) == expected, "\(html)")
        }
    }

    @Test("'<?x' in UTF-16 without a byte order mark gives UTF-16")
    func utf16XMLDeclaration() {
        let little = Array(#"<?xml version="1.0"?><p>é</p>"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(CharsetDecoder.prescan(little) == .utf16LE)
        let decoded = CharsetDecoder.decode(little, contentType: nil)
        #expect(decoded.encoding == .utf16LE)
        #expect(decoded.text == #"<?xml version="1.0"?><p>é</p>"#)
        let big = Array("<?xml?>".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(CharsetDecoder.prescan(big) == .utf16BE)
    }

    @Test(
        "the charset parameter of a Content-Type value",
        arguments: [
            (#"text/html; charset="Shift_JIS""#, "Shift_JIS"),
            ("text/html;charset=utf-8", "UTF-8"),
            ("text/html; CHARSET = 'koi8-r' ; foo=bar", "KOI8-R"),
            ("text/html; charset=latin1", "windows-1252"),
            ("text/html; charset=utf-16", "UTF-16LE"),
            ("text/html; mycharset=big5", "Big5"),
            ("text/html; charset", nil),
            ("text/html; charset=", nil),
            ("text/html; charset=\"utf-8", nil),
            ("text/html; charset=bogus", nil),
            ("text/html", nil),
            ("", nil),
        ] as [(String, String?)]
    )
    func contentTypeCharset(value: String, expected: String?) {
        #expect(CharsetDecoder.charset(fromContentType: value)?.name == expected)
    }
}
