extension CharsetDecoder {
    /// The WHATWG "prescan a byte stream to determine its encoding" algorithm
    /// (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding) over at
    /// most the first 1024 bytes: comments, <meta charset>, <meta http-equiv="content-type" content="…charset=…">,
    /// skipping other tags and attributes exactly as specified; UTF-16 results become UTF-8 and x-user-defined
    /// becomes windows-1252, as the spec says.
    ///
    /// Also as specified: a page starting with "<?x" in UTF-16 gives UTF-16LE or UTF-16BE, and when no `<meta>`
    /// decides, an XML declaration's `encoding` at the very start ("get an XML encoding") does. A declaration cut
    /// off by the 1024-byte limit counts as absent. Nil when nothing declares a known encoding.
    package static func prescan(_ bytes: some Collection<UInt8>) -> TextEncoding? {
        let window = Array(bytes.prefix(prescanLimit))
        return window.withUnsafeBufferPointer { buffer in
            // Step 2, "prescan for UTF-16 XML declarations".
            if buffer.starts(with: [0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) { return .utf16LE }
            if buffer.starts(with: [0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) { return .utf16BE }
            var scanner = CharsetPrescanner(bytes: buffer, skipsRawText: false)
            // Running out of bytes aborts the prescan with the result of "get an XML encoding".
            return scanner.run() ?? xmlDeclarationEncoding(buffer)
        }
    }

    /// A `<meta>` declaration beyond the prescan's 1024 bytes, as the tree builder would find it: the first
    /// `<meta>` that declares a known encoding, outside comments and the text of raw-text elements.
    ///
    /// Browsers that meet it while the encoding is still a guess "change the encoding" (HTML §13.2.3.4) and
    /// re-parse the page; this gives the encoding they end with. It reads each `<meta>` with the prescan's rules
    /// (a `charset` with an unknown label hides the same element's `http-equiv`/`content` pair), a small
    /// simplification of the tree builder's "in head" `meta` rules.
    static func lateDeclaration(in bytes: [UInt8]) -> TextEncoding? {
        // A page the prescan read to its end has no later declaration; nor has a page without the word
        // `charset` (any case), which every declaration holds (the attribute, or `charset=` in `content`):
        // a plain byte search rules that out before the tokenizer-like scan.
        guard bytes.count > prescanLimit, containsCharsetWord(bytes) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var scanner = CharsetPrescanner(bytes: buffer, skipsRawText: true)
            return scanner.run()
        }
    }

    /// Whether `charset` (ASCII, any case) occurs anywhere in `bytes`.
    static func containsCharsetWord(_ bytes: [UInt8]) -> Bool {
        let word = Array("charset".utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index + word.count <= buffer.count {
                if buffer[index] | 0x20 == word[0],
                    (1..<word.count).allSatisfy({ buffer[index + $0] | 0x20 == word[$0] })
                {
                    return true
                }
                index += 1
            }
            return false
        }
    }

    /// "Get an XML encoding" (https://html.spec.whatwg.org/multipage/parsing.html#concept-get-xml-encoding-when-sniffing):
    /// the `encoding` of an XML declaration that starts the bytes, byte-exact (`<?xml`, `encoding` are case-sensitive).
    static func xmlDeclarationEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> TextEncoding? {
        // Steps 1–3: "<?xml" at the start, and the declaration's ">".
        guard bytes.starts(with: Array("<?xml".utf8)),
            let declarationEnd = bytes.firstIndex(of: CharsetASCII.greaterThan)
        else { return nil }
        // Steps 4–5: the first "encoding" before the ">", even inside another word.
        let word = Array("encoding".utf8)
        guard declarationEnd >= word.count,
            let found = (0...(declarationEnd - word.count)).first(where: { offset in
                word.indices.allSatisfy { bytes[offset + $0] == word[$0] }
            })
        else { return nil }
        var position = found + word.count
        // Steps 6–9: "=" with any space or control bytes around it.
        while position < bytes.count, bytes[position] <= CharsetASCII.space { position += 1 }
        guard position < bytes.count, bytes[position] == CharsetASCII.equals else { return nil }
        position += 1
        while position < bytes.count, bytes[position] <= CharsetASCII.space { position += 1 }
        // Steps 10–14: a quoted label.
        guard position < bytes.count else { return nil }
        let quote = bytes[position]
        guard quote == CharsetASCII.quotationMark || quote == CharsetASCII.apostrophe else { return nil }
        position += 1
        guard let labelEnd = bytes[position...].firstIndex(of: quote) else { return nil }
        let label = bytes[position..<labelEnd]
        // Step 15: no spaces or control bytes inside.
        guard !label.contains(where: { $0 <= CharsetASCII.space }) else { return nil }
        // Steps 16–18.
        guard let encoding = TextEncoding(label: String(decoding: label, as: UTF8.self)) else { return nil }
        return encoding.isUTF16 ? .utf8 : encoding
    }
}
