/// A page's bytes decoded to text, with the encoding that was used and why it was chosen.
///
/// Made by `CharsetDecoder.decode(_:contentType:defaultEncoding:)`; `utf8` is what libxml2 should parse.
package struct DecodedText: Sendable {
    /// The page as well-formed UTF-8, without the byte order mark if it had one. A page that was valid UTF-8
    /// already is these very bytes (not a copy).
    package let utf8: [UInt8]

    /// The page as text (made from ``utf8`` on each call).
    package var text: String { String(decoding: utf8, as: UTF8.self) }

    /// The encoding the bytes were decoded with.
    package let encoding: TextEncoding

    /// Which step of the encoding sniffing algorithm chose `encoding`.
    package let source: Source

    /// Whether some bytes were not valid in `encoding` and were replaced by U+FFFD (or the encoding was
    /// "replacement", which replaces the whole page).
    package let hadInvalidBytes: Bool

    /// Whether the `<meta>` declaration that chose `encoding` lies beyond the first 1024 bytes.
    ///
    /// Browsers find such a declaration only while building the tree and then re-parse the page with it (HTML
    /// §13.2.3.4, "change the encoding"); the result is the same, but the page loads twice and the declaration
    /// should move into the first 1024 bytes. Always false unless `source` is `.metaPrescan`.
    package let isLateDeclaration: Bool

    /// The step of the encoding sniffing algorithm (HTML §13.2.3.2) that chose the encoding.
    package enum Source: String, Sendable {
        /// The page starts with a UTF-8 or UTF-16 byte order mark, which wins over any declaration.
        case byteOrderMark
        /// The `charset` parameter of the HTTP `Content-Type` header named a known encoding.
        case httpHeader
        /// A `<meta charset>` or `<meta http-equiv="Content-Type">` declaration (or an XML declaration's
        /// `encoding`) in the page; see `isLateDeclaration`.
        case metaPrescan
        /// Nothing declared an encoding, but the bytes hold non-ASCII text that is valid UTF-8
        /// (a stand-in for the spec's optional frequency analysis, steps 6–8).
        case utf8Detection
        /// Nothing declared a usable encoding, so the caller's default was used.
        case defaultEncoding
    }

    /// Makes a result; `isLateDeclaration` defaults to false.
    init(
        utf8: [UInt8],
        encoding: TextEncoding,
        source: Source,
        hadInvalidBytes: Bool,
        isLateDeclaration: Bool = false
    ) {
        self.utf8 = utf8
        self.encoding = encoding
        self.source = source
        self.hadInvalidBytes = hadInvalidBytes
        self.isLateDeclaration = isLateDeclaration
    }
}
