/// A JSON parser (RFC 8259) over UTF-8 bytes that produces `JSONValue`s keeping member order, repeated keys and the
/// source text of numbers, with opt-in leniencies for the breakage JSON-LD blocks show on the web.
///
/// Strict by default: every leniency is an `Options` flag, and each use of one is counted in `used`, so a caller can
/// say exactly what it forgave. Containers are parsed with an explicit stack instead of recursion, so hostile
/// nesting costs heap rather than call stack; the depth limit still applies because `JSONValue`'s own equality,
/// hashing and deallocation recurse.
struct JSONParser {
    /// Breakage the parser may accept instead of failing.
    struct Options: OptionSet, Sendable {
        let rawValue: Int

        /// `,` directly before `}` or `]`.
        static let trailingCommas = Options(rawValue: 1 << 0)
        /// Raw U+0000–U+001F inside strings (kept in the value as written).
        static let controlCharacters = Options(rawValue: 1 << 1)
        /// An unknown escape such as `\'` (the backslash is dropped, the character kept).
        static let invalidEscapes = Options(rawValue: 1 << 2)
        /// Up to three extra `}` or `]` after the last value.
        static let strayClosers = Options(rawValue: 1 << 3)
        /// Several top-level objects or arrays in a row (optionally separated by `,` or `;`), returned as one array.
        static let concatenatedValues = Options(rawValue: 1 << 4)

        /// Every leniency.
        static let lenient: Options = [
            .trailingCommas, .controlCharacters, .invalidEscapes, .strayClosers, .concatenatedValues,
        ]
    }

    /// How often each leniency was needed.
    struct Leniencies: Equatable, Sendable {
        var trailingCommas = 0
        var controlCharacters = 0
        var invalidEscapes = 0
        /// The stray closing brackets dropped after the last value, in order (for example `"}"`).
        var strayClosers = ""
        /// The number of top-level values combined into an array; 0 when there was one.
        var concatenatedValues = 0
    }

    /// Why parsing stopped: a byte offset into the input and a message naming what was expected.
    struct Failure: Error, Equatable {
        let offset: Int
        let message: String
    }

    /// Containers nested deeper than this fail, so no input can make recursive `JSONValue` code overflow its stack.
    static let maximumDepth = 512

    /// What one parse gives: the value or the failure, and the leniencies it needed either way.
    typealias Outcome = (result: Result<JSONValue, Failure>, used: Leniencies)

    /// Parses `bytes` as one JSON text (several, with `.concatenatedValues`).
    static func parse(_ bytes: [UInt8], options: Options = []) -> Outcome {
        // An unsafe buffer keeps per-byte access cheap in debug builds too; the parser never outlives this call.
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, options: options)
            do throws(Failure) {
                let value = try parser.parseText()
                return (.success(value), parser.used)
            } catch {
                return (.failure(error), parser.used)
            }
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let options: Options
    /// The next byte to read.
    var offset = 0
    /// The leniencies used so far.
    var used = Leniencies()

    private init(bytes: UnsafeBufferPointer<UInt8>, options: Options) {
        self.bytes = bytes
        self.options = options
    }

    /// One open container on the explicit stack; `key` is the member name waiting for its value.
    private struct Frame {
        let isObject: Bool
        var elements: [JSONValue] = []
        var members: [(key: String, value: JSONValue)] = []
        var key = ""
    }

    /// The whole input: one value, then only white space (or, with leniencies, stray closers or more values).
    private mutating func parseText() throws(Failure) -> JSONValue {
        var values = [try parseValue()]
        while true {
            skipWhitespace()
            guard offset < bytes.count else { break }
            if options.contains(.strayClosers), let closers = closersToEnd() {
                used.strayClosers = closers
                break
            }
            if options.contains(.concatenatedValues) {
                var next = offset
                if bytes[next] == Byte.comma || bytes[next] == Byte.semicolon {
                    next = skippingWhitespace(from: next + 1)
                }
                if next < bytes.count, bytes[next] == Byte.openBrace || bytes[next] == Byte.openBracket {
                    offset = next
                    values.append(try parseValue())
                    continue
                }
            }
            throw unexpected(expected: "end of input after the JSON value")
        }
        guard values.count > 1 else { return values[0] }
        used.concatenatedValues = values.count
        return .array(values)
    }

    /// Parses one value, containers included, leaving `offset` after it.
    private mutating func parseValue() throws(Failure) -> JSONValue {
        var stack: [Frame] = []
        while true {
            skipWhitespace()
            guard offset < bytes.count else { throw unexpected(expected: "a value") }
            let value: JSONValue
            switch bytes[offset] {
            case Byte.openBrace, Byte.openBracket:
                guard stack.count < Self.maximumDepth else {
                    throw Failure(offset: offset, message: "nesting deeper than \(Self.maximumDepth) levels")
                }
                let isObject = bytes[offset] == Byte.openBrace
                offset += 1
                skipWhitespace()
                if peek() == (isObject ? Byte.closeBrace : Byte.closeBracket) {
                    offset += 1
                    value = isObject ? .object([]) : .array([])
                } else {
                    var frame = Frame(isObject: isObject)
                    if isObject { frame.key = try parseKey() }
                    stack.append(frame)
                    continue
                }
            case Byte.quote: value = .string(try parseString())
            case Byte.minus, Byte.zero...Byte.nine: value = .number(try parseNumber())
            case Byte.lowerT: value = try parseLiteral("true", .bool(true))
            case Byte.lowerF: value = try parseLiteral("false", .bool(false))
            case Byte.lowerN: value = try parseLiteral("null", .null)
            default: throw unexpected(expected: "a value")
            }
            if let finished = try attach(value, to: &stack) { return finished }
        }
    }

    /// Adds a finished value to the innermost open container and closes containers while their closers follow.
    /// Returns the outermost value once it is closed, or `nil` when a container wants another value.
    private mutating func attach(_ value: JSONValue, to stack: inout [Frame]) throws(Failure) -> JSONValue? {
        var value = value
        while let top = stack.indices.last {
            let isObject = stack[top].isObject
            if isObject {
                let key = stack[top].key
                stack[top].members.append((key: key, value: value))
            } else {
                stack[top].elements.append(value)
            }
            skipWhitespace()
            let closer = isObject ? Byte.closeBrace : Byte.closeBracket
            if peek() == Byte.comma {
                offset += 1
                skipWhitespace()
                guard options.contains(.trailingCommas), peek() == closer else {
                    if isObject { stack[top].key = try parseKey() }
                    return nil
                }
                used.trailingCommas += 1
            } else if peek() != closer {
                let expected = isObject ? "',' or '}' after object member" : "',' or ']' after array element"
                throw unexpected(expected: expected)
            }
            offset += 1
            let frame = stack.removeLast()
            value = frame.isObject ? .object(frame.members) : .array(frame.elements)
        }
        return value
    }

    /// A member name and its `:`.
    private mutating func parseKey() throws(Failure) -> String {
        skipWhitespace()
        guard peek() == Byte.quote else { throw unexpected(expected: "'\"' to begin an object key") }
        let key = try parseString()
        skipWhitespace()
        guard peek() == Byte.colon else { throw unexpected(expected: "':' after object key") }
        offset += 1
        return key
    }

    /// When everything from `offset` to the end is `}`, `]` or white space, with at most three closers, those
    /// closers; otherwise `nil`. A stray closer is an editing slip; a long run of them is not worth guessing about.
    private func closersToEnd() -> String? {
        var closers = ""
        for byte in bytes[offset...] {
            switch byte {
            case Byte.closeBrace where closers.count < 3: closers += "}"
            case Byte.closeBracket where closers.count < 3: closers += "]"
            case Byte.space, Byte.tab, Byte.lineFeed, Byte.carriageReturn: continue
            default: return nil
            }
        }
        return closers.isEmpty ? nil : closers
    }
}
