import StrictJSON
import Testing

@testable import Markup

/// StrictJSON's parser as the JSON-LD reader runs it: values as written, escapes, and errors located and worded
/// for page authors.
@Suite("JSON-LD: the JSON parser")
struct JSONLDParserTests {
    /// Parses strictly, as the reader first does, failing the test on error.
    private func value(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8), options: JSONLD.strictOptions)
    }

    /// The parser's failure for `text` in the reader's words, `nil` when it parses.
    static func failure(_ text: String, options: JSONParser.Options = JSONLD.strictOptions) -> JSONLD.Failure? {
        let bytes = Array(text.utf8)
        do {
            _ = try JSONParser.parse(bytes, options: options)
            return nil
        } catch {
            return JSONLD.failure(for: error, in: bytes)
        }
    }

    @Test("Objects keep member order and every repeated key")
    func memberOrder() throws {
        let parsed = try value(#"{"z": 1, "a": 2, "@type": "Recipe", "a": 3}"#)
        guard case .object(let members) = parsed else {
            Issue.record("not an object: \(parsed)")
            return
        }
        #expect(members.map(\.key) == ["z", "a", "@type", "a"])
        #expect(
            members.map(\.value) == [
                .number(literal: "1"), .number(literal: "2"), .string("Recipe"), .number(literal: "3"),
            ])
        #expect(parsed["a"] == .number(literal: "2"))
    }

    @Test(
        "Numbers keep their source text",
        arguments: ["12.50", "0", "-0", "4.70", "1e3", "-1.5E-7", "12345678901234567890123", "0.1000"])
    func numberText(_ text: String) throws {
        guard case .number(let kept) = try value("[\(text)]").listValue.first else {
            Issue.record("\(text) is not a number")
            return
        }
        #expect(kept.literal == text)
    }

    @Test(
        "Scalars and containers parse to the values they write",
        arguments: [
            ("true", JSONValue.bool(true)),
            ("false", .bool(false)),
            ("null", .null),
            (" \t\r\n \"x\" \n", .string("x")),
            ("[]", .array([])),
            ("{}", .object([])),
            (
                "[1, [2, [3]], {}]",
                .array([
                    .number(literal: "1"), .array([.number(literal: "2"), .array([.number(literal: "3")])]),
                    .object([]),
                ])
            ),
            (
                #"{"a": {"b": [true, null]}}"#,
                .object([JSONMember("a", .object([JSONMember("b", .array([.bool(true), .null]))]))])
            ),
        ])
    func values(_ text: String, _ expected: JSONValue) throws {
        #expect(try value(text) == expected)
    }

    @Test(
        "String escapes decode, surrogate pairs join, and lone surrogates become U+FFFD",
        arguments: [
            (#""a\"b\\c\/d""#, "a\"b\\c/d"),
            (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
            (#""caf\u00e9 \u00E9""#, "café é"),
            (#""\ud83c\udf4b lemon""#, "🍋 lemon"),
            (#""\ud83c""#, "\u{FFFD}"),
            (#""\udf4b\ud83c""#, "\u{FFFD}\u{FFFD}"),
            (#""\ud83cx""#, "\u{FFFD}x"),
            (#""\ud83c\u0041""#, "\u{FFFD}A"),
            (#""raw UTF-8: crème brûlée, 東京""#, "raw UTF-8: crème brûlée, 東京"),
            (#""\u0000""#, "\u{0}"),
        ])
    func strings(_ text: String, _ expected: String) throws {
        #expect(try value(text) == .string(expected))
    }

    @Test("Invalid UTF-8 inside a string becomes U+FFFD instead of failing the block")
    func invalidUTF8() throws {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x62, 0xC3, 0x22]
        #expect(try JSONParser.parse(bytes, options: JSONLD.strictOptions) == .string("a\u{FFFD}b\u{FFFD}"))
    }

    @Test(
        "Errors name what was expected and where, as page line and column",
        arguments: [
            ("{\"a\": 1,\n \"b\" 2}", 2, 6, "expected ':' after object key, found '2'"),
            ("[1, 2\n\n  3]", 3, 3, "expected ',' or ']' after array element, found '3'"),
            ("{\"a\": tru}", 1, 10, "expected 'true', found '}'"),
            ("{\"a\": [1, 2}", 1, 12, "expected ',' or ']' after array element, found '}'"),
            ("{\"a\": 1,}", 1, 9, "expected '\"' to begin an object key, found '}'"),
            ("{'a': 1}", 1, 2, "expected '\"' to begin an object key, found '''"),
            ("{\"name\": \"Ann\nBaker\"}", 1, 14, "unescaped control character U+000A in string"),
            ("{\"a\": \"\\x\"}", 1, 8, "invalid escape '\\x' in string"),
            ("[\"\\u12\"]", 1, 3, "invalid \\u escape: expected 4 hexadecimal digits"),
            ("{\"a\":\n  \"open", 2, 3, "unterminated string"),
            ("[-]", 1, 3, "expected a digit after '-', found ']'"),
            ("[1.]", 1, 4, "expected a digit after '.' in number, found ']'"),
            ("[1e+]", 1, 5, "expected a digit after exponent, found ']'"),
            ("{\"a\": 1", 1, 8, "expected ',' or '}' after object member, found end of input"),
            ("{\"a\": 1} x", 1, 10, "expected end of input after the JSON value, found 'x'"),
            ("\r\n\r\n  <b>", 3, 3, "expected a value, found '<'"),
            ("\r\r[é?]", 3, 2, "expected a value, found U+00E9"),
            ("[\"é\", ü]", 1, 7, "expected a value, found U+00FC"),
            ("{\"a\": \u{FEFF}1}", 1, 7, "expected a value, found U+FEFF"),
        ])
    func locatedErrors(_ text: String, line: Int, column: Int, message: String) throws {
        let failure = try #require(Self.failure(text))
        let error = JSONLD.locate(failure, in: Array(text.utf8), startLine: 1)
        #expect(error == JSONLDError(line: line, column: column, message: message))
        // Mapped into a page where the block starts on line 40.
        #expect(JSONLD.locate(failure, in: Array(text.utf8), startLine: 40).line == line + 39)
    }

    @Test("Nothing is forgiven without the leniency options")
    func strictByDefault() {
        for text in ["[1,]", "[\"a\u{0A}\"]", "[\"\\'\"]", "{}}", "{}{}", "{} {}"] {
            #expect(Self.failure(text) != nil, "\(text) parsed strictly")
            #expect(Self.failure(text, options: JSONLD.lenientOptions) == nil, "\(text) failed leniently")
        }
    }

    @Test("Containers nest up to 512 deep, and no deeper")
    func depthLimit() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try value(deepest) }
        let tooDeep = "{\"a\":" + deepest + "}"
        let failure = try #require(Self.failure(tooDeep))
        #expect(failure == JSONLD.Failure(offset: 5 + 511, message: "nesting deeper than 512 levels"))
    }
}
