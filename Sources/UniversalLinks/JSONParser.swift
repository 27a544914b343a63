/// A small RFC 8259 JSON parser over UTF-8 bytes that reports the byte offset of the first error.
///
/// Written for this module rather than using Foundation's `JSONSerialization` because the
/// diagnosis needs a line and column, booleans distinct from numbers, duplicate keys visible, and a
/// nesting limit. The input must already be valid UTF-8 (`AppSiteAssociation` checks that first).
struct JSONParser {
    /// Why and where parsing stopped.
    struct Failure: Error {
        var reason: String
        var offset: Int
    }

    private let bytes: [UInt8]
    private var offset: Int
    private let maximumDepth: Int

    /// Parses one JSON value starting at `offset`, allowing only white space after it.
    static func parse(_ bytes: [UInt8], from offset: Int, maximumDepth: Int) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes, offset: offset, maximumDepth: maximumDepth)
        let value = try parser.value(depth: 0)
        parser.skipWhiteSpace()
        guard parser.offset == bytes.count else {
            throw parser.failure("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        skipWhiteSpace()
        guard offset < bytes.count else { throw failure("unexpected end of file, expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
        offset += 1
        var members: [JSONMember] = []
        skipWhiteSpace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhiteSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()), expected a key in double quotes")
            }
            let key = try string()
            skipWhiteSpace()
            guard consume(UInt8(ascii: ":")) else { throw failure("unexpected \(describeCurrent()), expected ':'") }
            members.append(JSONMember(key: key, value: try value(depth: depth)))
            skipWhiteSpace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            guard consume(UInt8(ascii: ",")) else {
                throw failure("unexpected \(describeCurrent()), expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maximumDepth else { throw failure("nesting deeper than \(maximumDepth) levels") }
        offset += 1
        var elements: [JSONValue] = []
        skipWhiteSpace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            elements.append(try value(depth: depth))
            skipWhiteSpace()
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            guard consume(UInt8(ascii: ",")) else {
                throw failure("unexpected \(describeCurrent()), expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        offset += 1
        var result: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &result)
            case 0x00..<0x20:
                throw failure("control character U+00\(hex(byte)) in a string (write it as an escape)")
            default:
                result.append(byte)
                offset += 1
            }
        }
        throw failure("unexpected end of file inside a string")
    }

    /// Decodes one backslash escape; a lone surrogate in `\u` escapes becomes U+FFFD.
    private mutating func escape(into result: inout [UInt8]) throws(Failure) {
        offset += 1
        guard offset < bytes.count else { throw failure("unexpected end of file inside a string") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[bytes[offset]] {
            result.append(replacement)
            offset += 1
            return
        }
        guard bytes[offset] == UInt8(ascii: "u") else { throw failure("invalid escape \\\(describeCurrent())") }
        offset += 1
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar), bytes[offset...].starts(with: [0x5C, UInt8(ascii: "u")]) {
            let resume = offset
            offset += 2
            let low = try hexQuad()
            if (0xDC00..<0xE000).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else {
                offset = resume
            }
        }
        result.append(contentsOf: Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8))
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
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

    private mutating func number() throws(Failure) -> Double {
        let start = offset
        _ = consume(UInt8(ascii: "-"))
        let integerStart = offset
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("invalid number, expected a digit") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw failure("invalid number, leading zeros are not allowed")
        }
        if consume(UInt8(ascii: ".")), digits() == 0 { throw failure("invalid number, expected a digit after '.'") }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            guard digits() > 0 else { throw failure("invalid number, expected a digit in the exponent") }
        }
        return Double(String(decoding: bytes[start..<offset], as: UTF8.self)) ?? .nan
    }

    private mutating func digits() -> Int {
        let start = offset
        while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
        return offset - start
    }

    private mutating func literal(_ word: String) throws(Failure) {
        guard bytes[offset...].starts(with: Array(word.utf8)) else {
            throw failure("unexpected \(describeCurrent()), expected a value")
        }
        offset += word.utf8.count
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    mutating func skipWhiteSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    /// The byte at the current offset as a reader would name it: `'x'`, `byte 0x80`, or end of file.
    private func describeCurrent() -> String {
        guard offset < bytes.count else { return "end of file" }
        let byte = bytes[offset]
        return (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(byte))"
    }

    private func failure(_ reason: String) -> Failure { Failure(reason: reason, offset: offset) }

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
