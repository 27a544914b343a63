extension CharsetPrescanner {
    /// An attribute as "get an attribute" returns it: name and value as bytes, ASCII letters lowercased.
    struct Attribute {
        var name: [UInt8] = []
        var value: [UInt8] = []
    }

    /// The `charset` variable of the meta branch: null, failure (an unknown label), or an encoding. The spec
    /// keeps null and failure apart: a failed `charset` attribute still stops a later `content` from counting.
    private enum Charset {
        case none
        case failure
        case encoding(TextEncoding)
    }

    /// The meta branch, steps 2–16, with `position` on the byte after "<meta"; the encoding it declares, or nil
    /// for "jump to next byte" (with `position` on the tag's ">").
    mutating func metaDeclaration() throws(OutOfBytes) -> TextEncoding? {
        var names: Set<[UInt8]> = []
        var gotPragma = false
        var needPragma: Bool?
        var charset = Charset.none
        while let attribute = try attribute(collecting: true) {
            // Step 7: only the first attribute of a name counts, as in the tokenizer.
            guard names.insert(attribute.name).inserted else { continue }
            switch String(decoding: attribute.name, as: UTF8.self) {
            case "http-equiv":
                if attribute.value == Array("content-type".utf8) { gotPragma = true }
            case "content":
                if case .none = charset, let encoding = CharsetDecoder.encoding(fromMetaContent: attribute.value) {
                    charset = .encoding(encoding)
                    needPragma = true
                }
            case "charset":
                let label = String(decoding: attribute.value, as: UTF8.self)
                charset = TextEncoding(label: label).map(Charset.encoding) ?? .failure
                needPragma = false
            default:
                break
            }
        }
        // Steps 11–13: a content-derived charset needs http-equiv="content-type"; failure counts as nothing.
        guard let needPragma, gotPragma || !needPragma, case .encoding(let encoding) = charset else { return nil }
        // Steps 14–15.
        return encoding.asDeclaredInDocument
    }

    /// "Get an attribute" (#concept-get-attributes-when-sniffing), steps 1–12: nil when there is none (at ">").
    ///
    /// With `collecting` false (attributes of tags other than `<meta>`, which only need skipping) nothing is
    /// copied, so a megabyte-long attribute costs no memory; the returned attribute is then empty.
    mutating func attribute(collecting: Bool) throws(OutOfBytes) -> Attribute? {
        // Step 1: skip whitespace and slashes.
        var byte = try current()
        while CharsetASCII.isWhitespace(byte) || byte == CharsetASCII.slash {
            position += 1
            byte = try current()
        }
        // Step 2.
        if byte == CharsetASCII.greaterThan { return nil }
        // Steps 3–5: the name.
        var attribute = Attribute()
        var nameIsEmpty = true
        while true {
            let byte = try current()
            if byte == CharsetASCII.equals, !nameIsEmpty {
                position += 1
                break
            }
            if CharsetASCII.isWhitespace(byte) {
                // Steps 6–8, "spaces": only an "=" after the spaces gives the attribute a value.
                while CharsetASCII.isWhitespace(try current()) { position += 1 }
                guard try current() == CharsetASCII.equals else { return attribute }
                position += 1
                break
            }
            if byte == CharsetASCII.slash || byte == CharsetASCII.greaterThan { return attribute }
            if collecting { attribute.name.append(CharsetASCII.lowercased(byte)) }
            nameIsEmpty = false
            position += 1
        }
        // Step 9, "value": skip whitespace.
        while CharsetASCII.isWhitespace(try current()) { position += 1 }
        // Step 10.
        let first = try current()
        if first == CharsetASCII.quotationMark || first == CharsetASCII.apostrophe {
            while true {
                position += 1
                let byte = try current()
                if byte == first {
                    position += 1
                    return attribute
                }
                if collecting { attribute.value.append(CharsetASCII.lowercased(byte)) }
            }
        }
        if first == CharsetASCII.greaterThan { return attribute }
        if collecting { attribute.value.append(CharsetASCII.lowercased(first)) }
        position += 1
        // Steps 11–12: an unquoted value ends at whitespace or ">".
        while true {
            let byte = try current()
            if CharsetASCII.isWhitespace(byte) || byte == CharsetASCII.greaterThan { return attribute }
            if collecting { attribute.value.append(CharsetASCII.lowercased(byte)) }
            position += 1
        }
    }
}

/// The ASCII bytes and byte classes the charset algorithms test for.
enum CharsetASCII {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let formFeed: UInt8 = 0x0C
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quotationMark: UInt8 = 0x22
    static let apostrophe: UInt8 = 0x27
    static let hyphen: UInt8 = 0x2D
    static let slash: UInt8 = 0x2F
    static let semicolon: UInt8 = 0x3B
    static let lessThan: UInt8 = 0x3C
    static let equals: UInt8 = 0x3D
    static let greaterThan: UInt8 = 0x3E

    /// ASCII whitespace as HTML's byte algorithms list it: TAB, LF, FF, CR, SPACE.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == lineFeed || byte == tab || byte == carriageReturn || byte == formFeed
    }

    /// A-Z or a-z.
    static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// The byte with A-Z mapped to a-z.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }
}
