/// The byte-level scanner behind HTML's "prescan a byte stream to determine its encoding" (HTML §13.2.3.2,
/// https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding) and its
/// "get an attribute" (#concept-get-attributes-when-sniffing), followed step by step.
///
/// It reads only the bytes it is given: the caller passes the first 1024 bytes for the prescan proper. With
/// `skipsRawText`, the caller passes the whole page to find a declaration the tree builder would find later
/// (§13.2.3.4): the scan then also skips the contents of raw-text and RCDATA elements (`<script>`, `<style>`,
/// `<title>`, `<textarea>`, …), which the tree builder never reads as tags, and stops at `<plaintext>`.
///
/// The buffer must outlive the scanner; it is only used inside one `withUnsafeBufferPointer` call.
struct CharsetPrescanner {
    /// Thrown when the position passes the end of the bytes: the spec's "runs out of bytes", which aborts the
    /// whole prescan.
    struct OutOfBytes: Error {}

    /// The bytes to scan.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether raw-text element contents are skipped (the late, tree-builder-like scan).
    let skipsRawText: Bool
    /// The spec's `position` (internal so the attribute steps in `CharsetPrescanner+Meta.swift` can move it).
    var position = 0

    /// Elements whose contents the HTML tokenizer reads as text, never as tags (§13.2.5, the RAWTEXT, RCDATA and
    /// script data states the tree builder switches to); `noscript` counts because browsers run scripts.
    private static let rawTextElements: Set<[UInt8]> = Set(
        ["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript"].map {
            Array($0.utf8)
        }
    )

    /// Makes a scanner over `bytes`.
    init(bytes: UnsafeBufferPointer<UInt8>, skipsRawText: Bool) {
        self.bytes = bytes
        self.skipsRawText = skipsRawText
    }

    /// Runs the prescan loop; the declared encoding, or nil when the bytes ran out first.
    mutating func run() -> TextEncoding? {
        do throws(OutOfBytes) {
            return try loop()
        } catch {
            return nil
        }
    }

    /// The prescan's steps 3–4 ("Loop" and "Next byte"); returns only with an encoding, else throws.
    private mutating func loop() throws(OutOfBytes) -> TextEncoding {
        while true {
            // "Any other byte: do nothing with that byte": jump straight to the next "<".
            while try current() != CharsetASCII.lessThan { position += 1 }
            if matches("<!--") {
                try skipComment()
            } else if isMetaStart() {
                // Step 1 of the meta branch: point at the space or slash after "<meta".
                position += 5
                if let encoding = try metaDeclaration() { return encoding }
            } else if let isEndTag = tagStart() {
                try skipTag(isEndTag: isEndTag)
            } else if matches("<!") || matches("</") || matches("<?") {
                // Advance to the first ">" after the "<".
                position += 1
                while try current() != CharsetASCII.greaterThan { position += 1 }
            }
            // "Next byte".
            position += 1
        }
    }

    /// The byte at `position`, or `OutOfBytes`.
    func current() throws(OutOfBytes) -> UInt8 {
        guard position < bytes.count else { throw OutOfBytes() }
        return bytes[position]
    }

    /// The byte `offset` bytes after `position`, nil past the end.
    func peek(_ offset: Int) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    /// Whether the bytes at `position` are exactly `literal` (ASCII).
    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { pattern in
            (0..<count).allSatisfy { bytes[position + $0] == pattern[$0] }
        }
    }

    /// "<meta" (any case) followed by ASCII whitespace or "/".
    private func isMetaStart() -> Bool {
        guard let last = peek(5), CharsetASCII.isWhitespace(last) || last == CharsetASCII.slash else { return false }
        return zip(1...4, "meta".utf8).allSatisfy { offset, letter in
            peek(offset).map(CharsetASCII.lowercased) == letter
        }
    }

    /// For "<" + optional "/" + ASCII letter: whether it is an end tag; nil for anything else.
    private func tagStart() -> Bool? {
        let isEndTag = peek(1) == CharsetASCII.slash
        guard let letter = peek(isEndTag ? 2 : 1), CharsetASCII.isLetter(letter) else { return nil }
        return isEndTag
    }

    /// Moves to the first ">" preceded by "--" after the "<" of "<!--" (those dashes may be the opening ones).
    private mutating func skipComment() throws(OutOfBytes) {
        position += 4
        while true {
            if try current() == CharsetASCII.greaterThan, bytes[position - 1] == CharsetASCII.hyphen,
                bytes[position - 2] == CharsetASCII.hyphen
            {
                return
            }
            position += 1
        }
    }

    /// The "<" + letter branch: skip the name, then every attribute; with `skipsRawText`, also the element's text.
    private mutating func skipTag(isEndTag: Bool) throws(OutOfBytes) {
        let nameStart = position + (isEndTag ? 2 : 1)
        // Step 1: advance to the next whitespace or ">".
        while true {
            let byte = try current()
            if CharsetASCII.isWhitespace(byte) || byte == CharsetASCII.greaterThan { break }
            position += 1
        }
        let nameEnd = position
        // Step 2: repeatedly get an attribute; `position` ends on the tag's ">".
        while try attribute(collecting: false) != nil {}
        guard skipsRawText, !isEndTag else { return }
        var name = bytes[nameStart..<nameEnd].prefix { $0 != CharsetASCII.slash }.map(CharsetASCII.lowercased)
        if name == Array("plaintext".utf8) {
            // Everything after <plaintext> is text (§13.2.5.5, PLAINTEXT state).
            throw OutOfBytes()
        }
        guard Self.rawTextElements.contains(name) else { return }
        name.insert(contentsOf: [CharsetASCII.lessThan, CharsetASCII.slash], at: 0)
        try skipRawText(untilEndTag: name)
    }

    /// Moves to just before the "<" of `endTag` ("</script", …) followed by whitespace, "/" or ">".
    private mutating func skipRawText(untilEndTag endTag: [UInt8]) throws(OutOfBytes) {
        position += 1
        while true {
            while try current() != CharsetASCII.lessThan { position += 1 }
            let isMatch = endTag.indices.allSatisfy { peek($0).map(CharsetASCII.lowercased) == endTag[$0] }
            if isMatch, let after = peek(endTag.count),
                CharsetASCII.isWhitespace(after) || after == CharsetASCII.slash || after == CharsetASCII.greaterThan
            {
                // "Next byte" then lands on the "<", so the end tag is scanned as a tag.
                position -= 1
                return
            }
            position += 1
        }
    }
}
