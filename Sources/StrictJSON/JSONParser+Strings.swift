internal import ASCIIText

extension JSONParser {
    /// A string starting at the opening quote. Runs without escapes are decoded straight from the
    /// input; a string with escapes (or, when allowed, raw control characters) is assembled in the
    /// reused scratch buffer.
    mutating func string() throws(JSONParseError) -> String {
        let opening = offset
        offset += 1
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = try decoded(UnsafeBufferPointer(rebasing: bytes[start..<offset]), at: start)
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            offset += 1
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                guard options.replacesInvalidUTF8 || scratch.withUnsafeBufferPointer(UTF8Check.isValid) else {
                    throw JSONParseError(.invalidUTF8, offset: start, found: bytes[start])
                }
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(inStringAt: opening)
            case 0x00..<0x20:
                guard options.leniencies.contains(.controlCharacters) else { throw failure(.controlCharacter) }
                used.controlCharacters += 1
                scratch.append(byte)
                offset += 1
            default:
                scratch.append(byte)
                offset += 1
            }
        }
        throw failure(.unterminatedString(opening: opening))
    }

    /// The string of a run of UTF-8 that starts at `start` in the input.
    private func decoded(_ run: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONParseError) -> String {
        // Checked first, then decoded: `String(decoding:)` has a fast path for valid input, while
        // `String(validating:)` is generic here and several times slower. Repairing needs no check:
        // `String(decoding:)` replaces each ill-formed sequence with U+FFFD.
        guard options.replacesInvalidUTF8 || UTF8Check.isValid(run) else {
            throw JSONParseError(.invalidUTF8, offset: start, found: bytes[start])
        }
        return String(decoding: run, as: UTF8.self)
    }

    /// Decodes one backslash escape into the scratch buffer. An unknown escape, when allowed, leaves
    /// the character after the backslash to be read as content.
    private mutating func escape(inStringAt opening: Int) throws(JSONParseError) {
        let escapeStart = offset
        offset += 1
        guard offset < bytes.count else { throw failure(.unterminatedString(opening: opening)) }
        let simple: UInt8? =
            switch bytes[offset] {
            case UInt8(ascii: "\""): 0x22
            case UInt8(ascii: "\\"): 0x5C
            case UInt8(ascii: "/"): 0x2F
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            scratch.append(simple)
            offset += 1
            return
        }
        guard bytes[offset] == UInt8(ascii: "u") else {
            // PHP's addslashes writes `\'`: the author meant the character itself.
            guard options.leniencies.contains(.invalidEscapes), bytes[offset] >= 0x20 else {
                throw failure(.invalidEscape)
            }
            used.invalidEscapes += 1
            return
        }
        offset += 1
        var scalar = try hexQuad(escape: escapeStart)
        if (0xD800..<0xDC00).contains(scalar), bytes.count - offset >= 2, bytes[offset] == 0x5C,
            bytes[offset + 1] == UInt8(ascii: "u")
        {
            let resume = offset
            offset += 2
            let low = try hexQuad(escape: resume)
            if (0xDC00..<0xE000).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                offset = resume
            }
        }
        guard let decoded = Unicode.Scalar(scalar) else {
            guard options.replacesLoneSurrogates else {
                throw JSONParseError(.loneSurrogate, offset: escapeStart, found: bytes[escapeStart])
            }
            scratch.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
            return
        }
        UTF8.encode(decoded) { scratch.append($0) }
    }

    /// The four hexadecimal digits at the offset, of the `\u` escape whose backslash is at `escape`.
    private mutating func hexQuad(escape: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count, let digit = Hex.value(of: bytes[offset]) else {
                throw failure(.invalidUnicodeEscape(escape: escape))
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }
}
