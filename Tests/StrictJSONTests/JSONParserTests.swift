import StrictJSON
import Testing

@Suite("Strict JSON parser")
struct JSONParserTests {
    static func parse(_ text: String, _ options: JSONParser.Options = JSONParser.Options()) throws(JSONParseError)
        -> JSONValue
    {
        try JSONParser.parse(Array(text.utf8), options: options)
    }

    static func number(_ literal: String) -> JSONNumber { JSONNumber(literal: literal) }

    @Test("values of every kind; objects keep order and duplicates; numbers keep their text")
    func values() throws {
        let value = try Self.parse(#" {"b":[true,false,null],"a":"x\u00e9\n","a":-1.5e3,"e":{},"f":[]} "#)
        #expect(
            value
                == .object([
                    JSONMember(key: "b", value: .array([.bool(true), .bool(false), .null])),
                    JSONMember(key: "a", value: .string("xé\n")),
                    JSONMember(key: "a", value: .number(Self.number("-1.5e3"))),
                    JSONMember(key: "e", value: .object([])), JSONMember(key: "f", value: .array([])),
                ]))
        #expect(try Self.parse(#""\ud83d\ude00 \/ \" \\ \b\f\r\t""#) == .string("😀 / \" \\ \u{8}\u{C}\r\t"))
        #expect(try Self.parse("\"caf\u{E9} \u{1F600}\"") == .string("café 😀"))
        #expect(try Self.parse("0") == .number(Self.number("0")))
    }

    @Test(
        "errors name the byte offset and what was expected",
        arguments: [
            ("", 0, "unexpected end of file, expected a value"),
            ("{\"a\":1,}", 7, "unexpected '}', expected a key in double quotes"),
            ("[1,]", 3, "unexpected ']', expected a value"),
            ("[1 2]", 3, "unexpected '2', expected ',' or ']'"),
            ("{\"a\" 1}", 5, "unexpected '1', expected ':'"),
            ("{} x", 3, "unexpected 'x' after the end of the JSON value"),
            ("01", 2, "invalid number, leading zeros are not allowed"),
            ("1.", 2, "invalid number, expected a digit after '.'"),
            ("1e", 2, "invalid number, expected a digit in the exponent"),
            ("-", 1, "invalid number, expected a digit"),
            ("NaN", 0, "unexpected 'N', expected a value"),
            ("tru", 0, "unexpected 't', expected a value"),
            ("\"a\u{1}\"", 2, "control character U+0001 in a string (write it as an escape)"),
            ("\"\\x\"", 2, "invalid escape \\'x'"),
            ("\"\\u12G4\"", 5, "invalid \\u escape, expected four hexadecimal digits"),
            ("\"abc", 4, "unexpected end of file inside a string"),
            ("\"\\ud800\"", 1, "\\u escape of a lone UTF-16 surrogate"),
            ("\"\\udc00\\u0041\"", 1, "\\u escape of a lone UTF-16 surrogate"),
            ("//", 0, "unexpected '/', expected a value"),
        ])
    func errors(text: String, offset: Int, reason: String) {
        Self.expectFailure(offset: offset, reason: reason) { try Self.parse(text) }
    }

    /// Expects `parse` to throw a ``JSONParseError`` at `offset` with `reason`.
    static func expectFailure(
        offset: Int, reason: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ parse: () throws -> JSONValue
    ) {
        do {
            let value = try parse()
            Issue.record("parsed as \(value)", sourceLocation: sourceLocation)
        } catch let error as JSONParseError {
            #expect(error.reason == reason, sourceLocation: sourceLocation)
            #expect(error.offset == offset, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("invalid UTF-8 in a string is an error, with or without escapes")
    func invalidUTF8() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0x5C, 0x6E, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            Self.expectFailure(offset: 1, reason: "invalid UTF-8 in a string") { try JSONParser.parse(bytes) }
        }
    }

    @Test("a lone surrogate becomes U+FFFD when asked; a pair still decodes")
    func loneSurrogates() throws {
        let options = JSONParser.Options(replacesLoneSurrogates: true)
        #expect(try Self.parse(#""a\ud800b\udc00\ud800\u0041""#, options) == .string("a\u{FFFD}b\u{FFFD}\u{FFFD}A"))
        #expect(try Self.parse(#""\ud83d\ude00""#, options) == .string("😀"))
    }

    @Test("depth and size are bounded")
    func limits() throws {
        let options = JSONParser.Options(maximumDepth: 3, maximumBytes: 20)
        #expect(try Self.parse("[[{}]]", options) == .array([.array([.object([])])]))
        Self.expectFailure(offset: 3, reason: "nesting deeper than 3 levels") { try Self.parse("[[[[]]]]", options) }
        Self.expectFailure(offset: 0, reason: "longer than 20 bytes") {
            try Self.parse(String(repeating: " ", count: 19) + "[0]", options)
        }
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try Self.parse(deep) }
        #expect(throws: JSONParseError.self) { try Self.parse("[" + deep + "]") }
    }

    @Test("parsing from an offset counts offsets from the start of the buffer")
    func offsets() throws {
        #expect(try JSONParser.parse(Array("xx[1]".utf8), from: 2) == .array([.number(Self.number("1"))]))
        Self.expectFailure(offset: 3, reason: "unexpected ',', expected a value") {
            try JSONParser.parse(Array("xx[,]".utf8), from: 2)
        }
    }

    @Test(
        "doubles: nearest value; nil on overflow or on underflow of a non-zero literal",
        arguments: [
            ("4.5", 4.5), ("-0.0", -0.0), ("0e400", 0), ("1e308", 1e308), ("5e-324", .leastNonzeroMagnitude),
            ("1.7976931348623157e308", 1.7976931348623157e308), ("12345678901234567890", 12_345_678_901_234_567_168),
            ("1e400", nil), ("-1e400", nil), ("1e-400", nil), ("2.4e-324", nil),
        ] as [(String, Double?)])
    func doubles(literal: String, expected: Double?) {
        #expect(Self.number(literal).doubleValue == expected)
    }

    @Test(
        "integers: exact whole numbers in Int's range however written",
        arguments: [
            ("42", 42), ("-0", 0), ("4.0", 4), ("4.5", nil), ("1e2", 100), ("1.5e1", 15), ("0.001e3", 1),
            ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("9223372036854775808", nil),
            ("9007199254740993.0", 9_007_199_254_740_993), ("4.0000000000000001", nil), ("1e19", nil),
            ("0e99999", 0), ("1e-400", nil), ("100e-2", 1),
        ] as [(String, Int?)])
    func integers(literal: String, expected: Int?) {
        #expect(Self.number(literal).integerValue == expected)
        #expect(Self.number(literal).isPlainInteger == !literal.contains(where: { ".eE".contains($0) }))
    }
}
