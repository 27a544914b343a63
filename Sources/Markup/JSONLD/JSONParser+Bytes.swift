extension JSONParser {
    /// The ASCII bytes the grammar names, as constants so `switch` statements over bytes read like the grammar.
    enum Byte {
        static let tab: UInt8 = 0x09
        static let lineFeed: UInt8 = 0x0A
        static let carriageReturn: UInt8 = 0x0D
        static let space: UInt8 = 0x20
        static let quote: UInt8 = 0x22
        static let ampersand: UInt8 = 0x26
        static let plus: UInt8 = 0x2B
        static let comma: UInt8 = 0x2C
        static let minus: UInt8 = 0x2D
        static let dot: UInt8 = 0x2E
        static let slash: UInt8 = 0x2F
        static let zero: UInt8 = 0x30
        static let nine: UInt8 = 0x39
        static let colon: UInt8 = 0x3A
        static let semicolon: UInt8 = 0x3B
        static let upperE: UInt8 = 0x45
        static let openBracket: UInt8 = 0x5B
        static let backslash: UInt8 = 0x5C
        static let closeBracket: UInt8 = 0x5D
        static let lowerB: UInt8 = 0x62
        static let lowerE: UInt8 = 0x65
        static let lowerF: UInt8 = 0x66
        static let lowerN: UInt8 = 0x6E
        static let lowerR: UInt8 = 0x72
        static let lowerT: UInt8 = 0x74
        static let lowerU: UInt8 = 0x75
        static let openBrace: UInt8 = 0x7B
        static let closeBrace: UInt8 = 0x7D

        /// Whether `byte` is `0`–`9`.
        static func isDigit(_ byte: UInt8) -> Bool {
            byte >= zero && byte <= nine
        }

        /// Whether `byte` is white space in JSON's sense (space, tab, line feed, carriage return; nothing else).
        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == space || byte == lineFeed || byte == carriageReturn || byte == tab
        }

        /// The value of a hexadecimal digit of either case, or `nil`.
        static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case zero...nine: return byte - zero
            case 0x41...0x46: return byte - 0x41 + 10
            case 0x61...0x66: return byte - 0x61 + 10
            default: return nil
            }
        }
    }

    /// The byte at `offset`, or `nil` at the end.
    func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    /// Moves `offset` past JSON white space.
    mutating func skipWhitespace() {
        offset = skippingWhitespace(from: offset)
    }

    /// The first position at or after `position` that is not JSON white space.
    func skippingWhitespace(from position: Int) -> Int {
        var position = position
        while position < bytes.count, Byte.isWhitespace(bytes[position]) { position += 1 }
        return position
    }

    /// A failure at `offset` saying what was expected and what was found there.
    func unexpected(expected: String) -> Failure {
        Failure(offset: offset, message: "expected \(expected), found \(describeCharacter(at: offset))")
    }

    /// The character at `position` for a message: `'x'` for printable ASCII, `U+XXXX` otherwise.
    func describeCharacter(at position: Int) -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte < 0x80 { return byte >= Byte.space && byte < 0x7F ? "'\(describe(byte))'" : hex(byte) }
        // Decode at most one UTF-8 sequence (four bytes) for the name; a broken sequence names U+FFFD.
        let end = min(position + 4, bytes.count)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
        let scalar = text.unicodeScalars.first?.value ?? 0xFFFD
        return "U+" + paddedHex(scalar)
    }

    /// A byte as its ASCII character when printable, else as `U+00XX`.
    func describe(_ byte: UInt8) -> String {
        byte >= Byte.space && byte < 0x7F ? String(Unicode.Scalar(byte)) : hex(byte)
    }

    /// A byte in `U+00XX` notation.
    func hex(_ byte: UInt8) -> String {
        "U+" + paddedHex(UInt32(byte))
    }

    /// Upper-case hexadecimal, at least four digits.
    private func paddedHex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
