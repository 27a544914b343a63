extension JSONParser {
    /// Parses a string whose opening quote is at `offset`, decoding every escape.
    ///
    /// Runs of plain bytes are copied as slices, so a string without escapes costs one scan and one decode. Invalid
    /// UTF-8 becomes U+FFFD rather than an error: a page's bytes were already decoded once, and what survives that is
    /// better kept than refused.
    mutating func parseString() throws(Failure) -> String {
        let opening = offset
        offset += 1
        var runStart = offset
        // Filled only once an escape appears; until then the string is one slice of the input.
        var decoded: [UInt8] = []
        var sawEscape = false
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == Byte.quote {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<offset])
                offset += 1
                guard sawEscape else { return String(decoding: run, as: UTF8.self) }
                decoded.append(contentsOf: run)
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte == Byte.backslash {
                sawEscape = true
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
                try parseEscape(into: &decoded)
                runStart = offset
                continue
            }
            if byte < Byte.space {
                guard options.contains(.controlCharacters) else {
                    throw Failure(offset: offset, message: "unescaped control character \(hex(byte)) in string")
                }
                used.controlCharacters += 1
            }
            offset += 1
        }
        throw Failure(offset: opening, message: "unterminated string")
    }

    /// Decodes the escape whose backslash is at `offset` into `decoded`, leaving `offset` after it.
    private mutating func parseEscape(into decoded: inout [UInt8]) throws(Failure) {
        let backslash = offset
        offset += 1
        guard offset < bytes.count else { throw Failure(offset: backslash, message: "unterminated string") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case Byte.quote, Byte.backslash, Byte.slash: decoded.append(byte)
        case Byte.lowerB: decoded.append(0x08)
        case Byte.lowerF: decoded.append(0x0C)
        case Byte.lowerN: decoded.append(Byte.lineFeed)
        case Byte.lowerR: decoded.append(Byte.carriageReturn)
        case Byte.lowerT: decoded.append(Byte.tab)
        case Byte.lowerU:
            let scalar = try parseUnicodeEscape(backslash: backslash)
            UTF8.encode(scalar) { decoded.append($0) }
        default:
            guard options.contains(.invalidEscapes), byte >= Byte.space else {
                throw Failure(offset: backslash, message: "invalid escape '\\\(describe(byte))' in string")
            }
            // PHP's addslashes writes `\'`; the author meant the character itself, so drop only the backslash and
            // let the string loop read the character again as ordinary content.
            used.invalidEscapes += 1
            offset -= 1
        }
    }

    /// Decodes `XXXX` after `\u` (and a following low surrogate escape when the first is a high surrogate).
    /// A lone or mismatched surrogate becomes U+FFFD, as WHATWG decoders do, instead of failing the block.
    private mutating func parseUnicodeEscape(backslash: Int) throws(Failure) -> Unicode.Scalar {
        guard let unit = hexQuad(at: offset) else {
            throw Failure(offset: backslash, message: "invalid \\u escape: expected 4 hexadecimal digits")
        }
        offset += 4
        let replacement: Unicode.Scalar = "\u{FFFD}"
        switch unit {
        case 0xD800...0xDBFF:
            guard offset + 1 < bytes.count, bytes[offset] == Byte.backslash, bytes[offset + 1] == Byte.lowerU,
                let low = hexQuad(at: offset + 2), (0xDC00...0xDFFF).contains(low)
            else { return replacement }
            offset += 6
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? replacement
        case 0xDC00...0xDFFF:
            return replacement
        default:
            return Unicode.Scalar(unit) ?? replacement
        }
    }

    /// The value of four hexadecimal digits at `position`, or `nil` when they are not all there.
    private func hexQuad(at position: Int) -> UInt32? {
        guard position >= 0, position + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            guard let digit = Byte.hexValue(byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Parses a number at `offset` by the JSON grammar and returns its source text unchanged.
    mutating func parseNumber() throws(Failure) -> String {
        let start = offset
        if peek() == Byte.minus { offset += 1 }
        if peek() == Byte.zero {
            offset += 1
        } else {
            try skipDigits(after: "'-'")
        }
        if peek() == Byte.dot {
            offset += 1
            try skipDigits(after: "'.' in number")
        }
        if peek() == Byte.lowerE || peek() == Byte.upperE {
            offset += 1
            if peek() == Byte.plus || peek() == Byte.minus { offset += 1 }
            try skipDigits(after: "exponent")
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    /// Skips one or more digits; fails naming what they should have followed.
    private mutating func skipDigits(after what: String) throws(Failure) {
        guard let first = peek(), Byte.isDigit(first) else { throw unexpected(expected: "a digit after \(what)") }
        while let byte = peek(), Byte.isDigit(byte) { offset += 1 }
    }

    /// Reads the literal `word` (`true`, `false`, `null`) at `offset`.
    mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        for expected in word.utf8 {
            guard peek() == expected else { throw unexpected(expected: "'\(word)'") }
            offset += 1
        }
        return value
    }
}
