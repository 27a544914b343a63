/// A strict RFC 8259 JSON parser over UTF-8 bytes: one value, white space around it, nothing else.
///
/// Strict means no extensions: no comments, no trailing commas, no single quotes, no `NaN`; strings
/// must be valid UTF-8 without raw control characters. The work is bounded: the input size and the
/// nesting depth are limited by ``Options``, and the first error stops parsing with its byte offset.
/// Numbers are kept as written (``JSONNumber``) and converted by the reader.
public struct JSONParser {
    /// Limits and choices of one parse.
    public struct Options: Sendable, Hashable {
        /// Arrays and objects nested deeper than this are an error (the outermost one is depth 1).
        public var maximumDepth: Int
        /// A longer input is an error, reported before parsing.
        public var maximumBytes: Int
        /// What a `\u` escape of a lone UTF-16 surrogate (`"\ud800"`) becomes: U+FFFD when `true`,
        /// an error when `false` (as Foundation's `JSONDecoder` does).
        public var replacesLoneSurrogates: Bool

        /// Options with the given limits.
        public init(maximumDepth: Int = 512, maximumBytes: Int = 64 << 20, replacesLoneSurrogates: Bool = false) {
            self.maximumDepth = maximumDepth
            self.maximumBytes = maximumBytes
            self.replacesLoneSurrogates = replacesLoneSurrogates
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var offset: Int
    let options: Options
    /// Reused for strings with escapes, so a document allocates it once.
    var scratch: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, offset: Int, options: Options) {
        self.bytes = bytes
        self.offset = offset
        self.options = options
    }

    /// Parses the JSON value that `bytes` holds from `offset` on; only white space may follow it.
    /// - Throws: ``JSONParseError`` with the byte offset (counted from the start of `bytes`).
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, from offset: Int = 0, options: Options = Options()
    ) throws(JSONParseError) -> JSONValue {
        guard bytes.count - offset <= options.maximumBytes else {
            throw JSONParseError(reason: "longer than \(options.maximumBytes) bytes", offset: offset)
        }
        var parser = JSONParser(bytes: bytes, offset: offset, options: options)
        let value = try parser.value(depth: 0)
        parser.skipWhiteSpace()
        guard parser.offset == bytes.count else {
            throw parser.failure("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    /// Parses the JSON value that `bytes` holds from `offset` on; only white space may follow it.
    /// - Throws: ``JSONParseError`` with the byte offset (counted from the start of `bytes`).
    public static func parse(
        _ bytes: [UInt8], from offset: Int = 0, options: Options = Options()
    ) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, from: offset, options: options) }
        }
        return try result.get()
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhiteSpace()
        guard offset < bytes.count else { throw failure("unexpected end of file, expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal(0x74_72_75_65, count: 4)  // true
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal(0x66_61_6C_73_65, count: 5)  // false
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal(0x6E_75_6C_6C, count: 4)  // null
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= options.maximumDepth else { throw failure("nesting deeper than \(options.maximumDepth) levels") }
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

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= options.maximumDepth else { throw failure("nesting deeper than \(options.maximumDepth) levels") }
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

    private mutating func number() throws(JSONParseError) -> JSONNumber {
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
        return JSONNumber(
            literal: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self))
    }

    private mutating func digits() -> Int {
        let start = offset
        while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 { offset += 1 }
        return offset - start
    }

    /// Matches a keyword whose bytes are packed big-endian in `word`.
    private mutating func literal(_ word: UInt64, count: Int) throws(JSONParseError) {
        guard bytes.count - offset >= count else { throw failure("unexpected \(describeCurrent()), expected a value") }
        for index in 0..<count
        where bytes[offset + index] != UInt8(truncatingIfNeeded: word >> (8 * (count - 1 - index))) {
            throw failure("unexpected \(describeCurrent()), expected a value")
        }
        offset += count
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    mutating func skipWhiteSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }
}
