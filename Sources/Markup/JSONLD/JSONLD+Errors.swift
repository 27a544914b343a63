internal import StrictJSON

extension JSONLD {
    /// A parse failure as the JSON-LD reader tells it to a page's author: a byte offset and a message
    /// that says what was expected and what was found (`expected ':' after object key, found '2'`).
    struct Failure: Equatable {
        /// The byte offset the message is about, in the text that was parsed.
        let offset: Int
        /// What was wrong.
        let message: String
    }

    /// The parser's `error` in the reader's words, located where an author looks for it: an escape at its
    /// backslash, a string that never ends at its opening quote, a misspelt `true` where it stops matching.
    /// Characters are named as the author typed them (`'x'`, `U+00E9`), from `bytes`, the text that was
    /// parsed.
    static func failure(for error: JSONParseError, in bytes: [UInt8]) -> Failure {
        let offset = error.offset
        func found(at position: Int = offset) -> String { describeCharacter(at: position, in: bytes) }
        switch error.problem {
        case .expectedValue:
            return Failure(offset: offset, message: "expected a value, found \(found())")
        case .expectedKey:
            return Failure(offset: offset, message: "expected '\"' to begin an object key, found \(found())")
        case .expectedColon:
            return Failure(offset: offset, message: "expected ':' after object key, found \(found())")
        case .expectedMemberEnd:
            return Failure(offset: offset, message: "expected ',' or '}' after object member, found \(found())")
        case .expectedElementEnd:
            return Failure(offset: offset, message: "expected ',' or ']' after array element, found \(found())")
        case .trailingContent:
            return Failure(offset: offset, message: "expected end of input after the JSON value, found \(found())")
        case .invalidLiteral:
            let word =
                switch error.found {
                case UInt8(ascii: "t"): "true"
                case UInt8(ascii: "f"): "false"
                default: "null"
                }
            var mismatch = offset
            for expected in word.utf8 {
                guard mismatch < bytes.count, bytes[mismatch] == expected else { break }
                mismatch += 1
            }
            return Failure(offset: mismatch, message: "expected '\(word)', found \(found(at: mismatch))")
        case .missingDigit(let part):
            let after =
                switch part {
                case .integer: "'-'"
                case .fraction: "'.' in number"
                case .exponent: "exponent"
                }
            return Failure(offset: offset, message: "expected a digit after \(after), found \(found())")
        case .leadingZeros:
            // The offset is the end of the integer digits; the author's slip is the digit after the `0`.
            var start = offset
            while start > 0, (0x30...0x39).contains(bytes[start - 1]) { start -= 1 }
            return Failure(
                offset: start + 1, message: "expected no digit after a leading '0', found \(found(at: start + 1))")
        case .controlCharacter:
            return Failure(offset: offset, message: "unescaped control character \(hex(error.found ?? 0)) in string")
        case .invalidEscape:
            return Failure(offset: offset - 1, message: "invalid escape '\\\(describe(error.found ?? 0))' in string")
        case .invalidUnicodeEscape(let escape):
            return Failure(offset: escape, message: "invalid \\u escape: expected 4 hexadecimal digits")
        case .unterminatedString(let opening):
            return Failure(offset: opening, message: "unterminated string")
        case .tooDeep(let limit):
            return Failure(offset: offset, message: "nesting deeper than \(limit) levels")
        case .loneSurrogate, .invalidUTF8, .tooLong:
            // The reader's options replace lone surrogates and bad UTF-8 and set no size limit.
            return Failure(offset: offset, message: error.reason)
        }
    }

    /// The failure's line and column in the page; `bytes` is the text as written, which `failure`'s
    /// offset counts in.
    static func locate(_ failure: Failure, in bytes: [UInt8], startLine: Int) -> JSONLDError {
        let end = min(max(failure.offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        var index = 0
        while index < end {
            let byte = bytes[index]
            index += 1
            // LF, CRLF and a lone CR each end a line, as in HTML; the CR of a CRLF waits for its LF.
            if byte == Byte.lineFeed
                || (byte == Byte.carriageReturn && (index == bytes.count || bytes[index] != Byte.lineFeed))
            {
                line += 1
                lineStart = index
            }
        }
        // Columns count Unicode scalars, so every UTF-8 byte except continuation bytes (10xxxxxx) starts one.
        let column = bytes[lineStart..<end].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return JSONLDError(line: startLine + line - 1, column: column, message: failure.message)
    }

    /// The character at `position` for a message: `'x'` for printable ASCII, `U+XXXX` otherwise.
    private static func describeCharacter(at position: Int, in bytes: [UInt8]) -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte < 0x80 { return byte >= Byte.space && byte < 0x7F ? "'\(describe(byte))'" : hex(byte) }
        // Decode at most one UTF-8 sequence (four bytes) for the name; a broken sequence names U+FFFD.
        let end = min(position + 4, bytes.count)
        let text = String(decoding: bytes[position..<end], as: UTF8.self)
        return "U+" + paddedHex(text.unicodeScalars.first?.value ?? 0xFFFD)
    }

    /// A byte as its ASCII character when printable, else as `U+00XX`.
    private static func describe(_ byte: UInt8) -> String {
        byte >= Byte.space && byte < 0x7F ? String(Unicode.Scalar(byte)) : hex(byte)
    }

    /// A byte in `U+00XX` notation.
    private static func hex(_ byte: UInt8) -> String {
        "U+" + paddedHex(UInt32(byte))
    }

    /// Upper-case hexadecimal, at least four digits.
    private static func paddedHex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
