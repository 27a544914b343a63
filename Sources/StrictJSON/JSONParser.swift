/// A JSON parser over UTF-8 bytes: strict RFC 8259 by default, with opt-in leniencies for JSON found
/// on the web.
///
/// Strict means one value, white space around it, nothing else, and no extensions: no comments, no
/// trailing commas, no single quotes, no `NaN`; strings must be valid UTF-8 without raw control
/// characters. Each leniency (``Leniencies``) is asked for in ``Options`` and every use of one is
/// counted (``LeniencyCounts``), so a caller can say exactly what it forgave. The work is bounded:
/// the input size and the nesting depth are limited by ``Options``, and the first error stops parsing
/// with its byte offset (``JSONParseError``). Numbers are kept as written (``JSONNumber``) and
/// converted by the reader.
package struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset: Int
    let options: Options
    /// The leniencies used so far.
    var used = LeniencyCounts()
    /// Reused for strings with escapes, so a document allocates it once.
    var scratch: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, offset: Int, options: Options) {
        self.bytes = bytes
        self.offset = offset
        self.options = options
    }

    /// Parses the JSON value that `bytes` holds from `offset` on; only white space may follow it
    /// (unless ``Options/leniencies`` allow more), and the leniencies used are added to `used`.
    /// - Throws: ``JSONParseError`` with the byte offset (counted from the start of `bytes`).
    package static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, from offset: Int = 0, options: Options, counting used: inout LeniencyCounts
    ) throws(JSONParseError) -> JSONValue {
        guard bytes.count - offset <= options.maximumBytes else {
            throw JSONParseError(.tooLong(limit: options.maximumBytes), offset: offset, found: nil)
        }
        var parser = JSONParser(bytes: bytes, offset: offset, options: options)
        defer { used = parser.used }
        return try parser.text()
    }

    /// Parses the JSON value that `bytes` holds from `offset` on; only white space may follow it
    /// (unless ``Options/leniencies`` allow more).
    /// - Throws: ``JSONParseError`` with the byte offset (counted from the start of `bytes`).
    package static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, from offset: Int = 0, options: Options = Options()
    ) throws(JSONParseError) -> JSONValue {
        var used = LeniencyCounts()
        return try parse(bytes, from: offset, options: options, counting: &used)
    }

    /// Parses the JSON value that `bytes` holds from `offset` on; only white space may follow it
    /// (unless ``Options/leniencies`` allow more).
    /// - Throws: ``JSONParseError`` with the byte offset (counted from the start of `bytes`).
    package static func parse(
        _ bytes: [UInt8], from offset: Int = 0, options: Options = Options()
    ) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, from: offset, options: options) }
        }
        return try result.get()
    }

    /// The whole input: one value, then only white space (or, with leniencies, stray closers or more
    /// values).
    private mutating func text() throws(JSONParseError) -> JSONValue {
        let first = try value(depth: 0)
        var more: [JSONValue] = []
        while true {
            skipWhiteSpace()
            guard offset < bytes.count else { break }
            if options.leniencies.contains(.strayClosers), let closers = closersToEnd() {
                used.strayClosers = closers
                break
            }
            if options.leniencies.contains(.concatenatedValues), let next = nextConcatenatedValue() {
                offset = next
                more.append(try value(depth: 0))
                continue
            }
            throw failure(.trailingContent)
        }
        guard !more.isEmpty else { return first }
        used.concatenatedValues = more.count + 1
        return .array([first] + more)
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        skipWhiteSpace()
        guard offset < bytes.count else { throw failure(.expectedValue) }
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
        default: throw failure(.expectedValue)
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= options.maximumDepth else { throw failure(.tooDeep(limit: options.maximumDepth)) }
        offset += 1
        var members: [JSONMember] = []
        skipWhiteSpace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhiteSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                // Reached only after a comma (an empty object returned above): a `}` here follows a trailing one.
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "}"),
                    options.leniencies.contains(.trailingCommas)
                {
                    offset += 1
                    used.trailingCommas += 1
                    return .object(members)
                }
                throw failure(.expectedKey)
            }
            let key = try string()
            skipWhiteSpace()
            guard consume(UInt8(ascii: ":")) else { throw failure(.expectedColon) }
            members.append(JSONMember(key: key, value: try value(depth: depth)))
            skipWhiteSpace()
            if consume(UInt8(ascii: "}")) { return .object(members) }
            guard consume(UInt8(ascii: ",")) else { throw failure(.expectedMemberEnd) }
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= options.maximumDepth else { throw failure(.tooDeep(limit: options.maximumDepth)) }
        offset += 1
        var elements: [JSONValue] = []
        skipWhiteSpace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            elements.append(try value(depth: depth))
            skipWhiteSpace()
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            guard consume(UInt8(ascii: ",")) else { throw failure(.expectedElementEnd) }
            skipWhiteSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]"), options.leniencies.contains(.trailingCommas) {
                offset += 1
                used.trailingCommas += 1
                return .array(elements)
            }
        }
    }

    private mutating func number() throws(JSONParseError) -> JSONNumber {
        let start = offset
        _ = consume(UInt8(ascii: "-"))
        let integerStart = offset
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure(.missingDigit(.integer)) }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw failure(.leadingZeros) }
        if consume(UInt8(ascii: ".")), digits() == 0 { throw failure(.missingDigit(.fraction)) }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            guard digits() > 0 else { throw failure(.missingDigit(.exponent)) }
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
        guard bytes.count - offset >= count else { throw failure(.invalidLiteral) }
        for index in 0..<count
        where bytes[offset + index] != UInt8(truncatingIfNeeded: word >> (8 * (count - 1 - index))) {
            throw failure(.invalidLiteral)
        }
        offset += count
    }

    /// When everything from `offset` to the end is `}`, `]` or white space, with one to three closers,
    /// those closers; otherwise `nil`. A stray closer is an editing slip; a long run of them is not worth
    /// guessing about.
    private func closersToEnd() -> String? {
        var closers = ""
        for index in offset..<bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "}") where closers.utf8.count < 3: closers += "}"
            case UInt8(ascii: "]") where closers.utf8.count < 3: closers += "]"
            case let byte where Self.isWhiteSpace(byte): continue
            default: return nil
            }
        }
        return closers.isEmpty ? nil : closers
    }

    /// Where the next of several concatenated values starts: an object or array at `offset`, or after
    /// a `,` or `;` and white space; `nil` when none does.
    private func nextConcatenatedValue() -> Int? {
        var next = offset
        if bytes[next] == UInt8(ascii: ",") || bytes[next] == UInt8(ascii: ";") {
            next += 1
            while next < bytes.count, Self.isWhiteSpace(bytes[next]) { next += 1 }
        }
        guard next < bytes.count, bytes[next] == UInt8(ascii: "{") || bytes[next] == UInt8(ascii: "[") else {
            return nil
        }
        return next
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard offset < bytes.count, bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    mutating func skipWhiteSpace() {
        while offset < bytes.count, Self.isWhiteSpace(bytes[offset]) { offset += 1 }
    }

    /// Whether `byte` is white space in JSON's sense: space, tab, line feed, carriage return.
    static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// A failure at the current offset.
    func failure(_ problem: JSONParseError.Problem) -> JSONParseError {
        JSONParseError(problem, offset: offset, found: offset < bytes.count ? bytes[offset] : nil)
    }
}
