/// Decodes a fetched page's bytes to UTF-8 text, choosing the encoding the way browsers do.
///
/// The order is HTML's encoding sniffing algorithm (§13.2.3.2,
/// https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm): a byte order mark, then the
/// HTTP `Content-Type` charset, then a `<meta>` declaration, then a default. The page is converted once, and
/// libxml2 is then given UTF-8 only, so its own (different) encoding detection never runs.
package enum CharsetDecoder {
    /// How many bytes the prescan reads: the 1024 the spec suggests and browsers use.
    package static let prescanLimit = 1024

    /// Full WHATWG-ish sniffing: BOM → `contentType` header's charset param (if it names a known encoding) →
    /// prescan of the first 1024 bytes → a late `<meta>` → valid non-ASCII UTF-8 → `defaultEncoding`
    /// (windows-1252 by default, as browsers in most locales).
    ///
    /// After the prescan, and before the default, the rest of the page is searched for a `<meta>` declaration
    /// outside comments, scripts and other raw text: a browser's tree builder finds such a late declaration and
    /// re-parses the page with it (§13.2.3.4, "change the encoding"). `isLateDeclaration` reports that case.
    ///
    /// Never fails: bytes that are invalid in the chosen encoding become U+FFFD (`hadInvalidBytes`).
    package static func decode(
        _ bytes: [UInt8],
        contentType: String?,
        defaultEncoding: TextEncoding = .windows1252
    ) -> DecodedText {
        // Step 1: the BOM wins over everything, and is not part of the text (Encoding §4.1, "decode").
        if let (encoding, length) = byteOrderMark(of: bytes) {
            return convert(bytes[length...], from: encoding, source: .byteOrderMark)
        }
        // Step 4: the transport layer's encoding, if it is a supported one. (Steps 2–3, user overrides and
        // encodings of documents being navigated to, do not apply to a crawler.)
        if let contentType, let encoding = charset(fromContentType: contentType) {
            return convert(bytes[...], from: encoding, source: .httpHeader)
        }
        // Step 5: the prescan.
        if let encoding = prescan(bytes) {
            return convert(bytes[...], from: encoding, source: .metaPrescan)
        }
        if let encoding = lateDeclaration(in: bytes) {
            return convert(bytes[...], from: encoding, source: .metaPrescan, isLateDeclaration: true)
        }
        // Steps 6–8 allow analysing the bytes. The one analysis done: undeclared non-ASCII
        // text that is entirely valid UTF-8 is UTF-8. Legacy 8-bit text almost never forms
        // valid multi-byte sequences, while undeclared UTF-8 pages are common, and decoding
        // them as windows-1252 would turn every accented letter into mojibake.
        if bytes.contains(where: { $0 >= 0x80 }), UTF8Validation.isValid(bytes[...]) {
            return DecodedText(utf8: bytes, encoding: .utf8, source: .utf8Detection, hadInvalidBytes: false)
        }
        // Step 9: the default.
        return convert(bytes[...], from: defaultEncoding, source: .defaultEncoding)
    }

    /// The charset parameter of a Content-Type value, per the WHATWG "extracting a character encoding from a meta
    /// element" algorithm (also used for the HTTP header): `text/html; charset="Shift_JIS"`.
    ///
    /// Nil when there is no `charset=` or its label is unknown. A UTF-16 label stays UTF-16 here: only a
    /// declaration inside the page is read as UTF-8.
    package static func charset(fromContentType value: String) -> TextEncoding? {
        encoding(fromMetaContent: Array(value.utf8))
    }

    /// The encoding named by a byte order mark at the start of `bytes`, and the mark's length.
    ///
    /// Encoding §6, "BOM sniff" (https://encoding.spec.whatwg.org/#bom-sniff). UTF-32 marks are not recognised:
    /// FF FE 00 00 is read as UTF-16LE, as browsers do.
    package static func byteOrderMark(of bytes: [UInt8]) -> (encoding: TextEncoding, length: Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        return nil
    }

    /// HTML's "algorithm for extracting a character encoding from a `meta` element"
    /// (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element).
    static func encoding(fromMetaContent string: [UInt8]) -> TextEncoding? {
        let charsetWord = Array("charset".utf8)
        var position = 0
        var valueStart = 0
        while true {
            // Step 2 ("loop"): the next "charset", ASCII case-insensitively.
            guard let found = firstIndex(of: charsetWord, in: string, from: position) else { return nil }
            // Step 3: whitespace may follow.
            var index = found + charsetWord.count
            while index < string.count, CharsetASCII.isWhitespace(string[index]) { index += 1 }
            // Step 4: no "=" means this "charset" was part of something else; search on from here.
            if index < string.count, string[index] == CharsetASCII.equals {
                valueStart = index + 1
                break
            }
            position = index
        }
        // Step 5.
        while valueStart < string.count, CharsetASCII.isWhitespace(string[valueStart]) { valueStart += 1 }
        // Step 6.
        guard valueStart < string.count else { return nil }
        let first = string[valueStart]
        let value: ArraySlice<UInt8>
        if first == CharsetASCII.quotationMark || first == CharsetASCII.apostrophe {
            // A quoted value needs its closing quote; an unmatched quote gives nothing.
            guard let end = string[(valueStart + 1)...].firstIndex(of: first) else { return nil }
            value = string[(valueStart + 1)..<end]
        } else {
            value = string[valueStart...].prefix { !CharsetASCII.isWhitespace($0) && $0 != CharsetASCII.semicolon }
        }
        return TextEncoding(label: String(decoding: value, as: UTF8.self))
    }

    /// The first index at or after `start` where `word` (lowercase) occurs in `string`, ignoring ASCII case.
    private static func firstIndex(of word: [UInt8], in string: [UInt8], from start: Int) -> Int? {
        guard string.count >= word.count, start <= string.count - word.count else { return nil }
        return (start...(string.count - word.count)).first { offset in
            word.indices.allSatisfy { CharsetASCII.lowercased(string[offset + $0]) == word[$0] }
        }
    }
}
