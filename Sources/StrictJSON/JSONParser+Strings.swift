extension JSONParser {
    /// A string starting at the opening quote. Runs without escapes are decoded straight from the
    /// input; a string with escapes is assembled in the reused scratch buffer.
    mutating func string() throws(JSONParseError) -> String {
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
                let text = scratch.withUnsafeBufferPointer {
                    UTF8Check.isValid($0) ? String(decoding: $0, as: UTF8.self) : nil
                }
                guard let text else { throw JSONParseError(reason: "invalid UTF-8 in a string", offset: start) }
                return text
            case UInt8(ascii: "\\"):
                try escape()
            case 0x00..<0x20:
                throw failure("control character U+00\(hex(byte)) in a string (write it as an escape)")
            default:
                scratch.append(byte)
                offset += 1
            }
        }
        throw failure("unexpected end of file inside a string")
    }

    private func decoded(_ run: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONParseError) -> String {
        // Checked first, then decoded: `String(decoding:)` has a fast path for valid input, while
        // `String(validating:)` is generic here and several times slower.
        guard UTF8Check.isValid(run) else { throw JSONParseError(reason: "invalid UTF-8 in a string", offset: start) }
        return String(decoding: run, as: UTF8.self)
    }

    /// Decodes one backslash escape into the scratch buffer.
    private mutating func escape() throws(JSONParseError) {
        offset += 1
        guard offset < bytes.count else { throw failure("unexpected end of file inside a string") }
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
        guard bytes[offset] == UInt8(ascii: "u") else { throw failure("invalid escape \\\(describeCurrent())") }
        let escapeStart = offset - 1
        offset += 1
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar), bytes.count - offset >= 2, bytes[offset] == 0x5C,
            bytes[offset + 1] == UInt8(ascii: "u")
        {
            let resume = offset
            offset += 2
            let low = try hexQuad()
            if (0xDC00..<0xE000).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                offset = resume
            }
        }
        guard let decoded = Unicode.Scalar(scalar) else {
            guard options.replacesLoneSurrogates else {
                throw JSONParseError(reason: "\\u escape of a lone UTF-16 surrogate", offset: escapeStart)
            }
            scratch.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
            return
        }
        UTF8.encode(decoded) { scratch.append($0) }
    }

    private mutating func hexQuad() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count, let digit = hexValue(bytes[offset]) else {
                throw failure("invalid \\u escape, expected four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// The byte at the current offset as a reader would name it: `'x'`, `byte 0x80`, or end of file.
    func describeCurrent() -> String {
        guard offset < bytes.count else { return "end of file" }
        let byte = bytes[offset]
        return (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
    }

    func failure(_ reason: String) -> JSONParseError { JSONParseError(reason: reason, offset: offset) }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
