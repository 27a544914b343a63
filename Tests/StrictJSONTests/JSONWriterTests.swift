import Foundation
import StrictJSON
import Testing

@Suite("Writing JSON values, and reading them the lenient way")
struct JSONWriterTests {
    @Test("Strings are escaped minimally: quotes, backslashes and every control character, C1 and DEL too")
    func escaping() {
        let text = "q\" b\\ n\n r\r t\t \u{1} \u{7F} \u{85} é / 🍋"
        #expect(JSONValue.string(text).serialized() == #""q\" b\\ n\n r\r t\t \u0001 \u007f \u0085 é / 🍋""#)
        #expect(JSONValue.string("plain / é").serialized() == #""plain / é""#)
    }

    @Test(
        "Escapes at the edges of what is escaped: U+001F, U+0020, U+009F, U+00A0, a control at either end",
        arguments: [
            ("\u{1F}", #""\u001f""#), (" ", #"" ""#), ("\u{9F}", #""\u009f""#), ("\u{A0}", "\"\u{A0}\""),
            ("\u{80}x\u{BF}", "\"\\u0080x\u{BF}\""), ("\nab\"", #""\nab\"""#), ("", #""""#),
        ])
    func escapeEdges(text: String, written: String) {
        #expect(JSONValue.string(text).serialized() == written)
    }

    @Test("A value is written compactly, in member order, numbers as written, and reads back as itself")
    func roundTrip() throws {
        let value = JSONValue.object([
            JSONMember("z", .number(JSONNumber(literal: "12.50"))), JSONMember("a", .array([.null, .bool(false)])),
            JSONMember("a", .object([])), JSONMember("k\"ey", .string("line\nbreak")),
        ])
        let text = value.serialized()
        #expect(text == #"{"z":12.50,"a":[null,false],"a":{},"k\"ey":"line\nbreak"}"#)
        #expect(try JSONParser.parse(Array(text.utf8)) == value)
    }

    @Test(
        "Writers' numbers: whole ones without a fraction, others as Swift prints them, non-finite as strings",
        arguments: [
            (4.0, JSONValue.number(JSONNumber(literal: "4"))), (-0.0, .number(JSONNumber(literal: "0"))),
            (4.5, .number(JSONNumber(literal: "4.5"))), (1e15, .number(JSONNumber(literal: "1000000000000000.0"))),
            (1e20, .number(JSONNumber(literal: "1e+20"))),
            (-123_456_789_012_345, .number(JSONNumber(literal: "-123456789012345"))),
            (Double.nan, .string("nan")), (-Double.infinity, .string("-inf")),
        ])
    func numbers(value: Double, expected: JSONValue) {
        #expect(JSONValue.number(value) == expected)
    }

    @Test("Lookups for readers that take JSON as it comes")
    func lookups() throws {
        let value = try JSONParser.parse(Array(#"{"a": 1.50, "a": 2, "s": " 4.5 ", "l": [true], "n": null}"#.utf8))
        #expect(value["a"] == .number(JSONNumber(literal: "1.50")))
        #expect(value["a"]?.stringValue == "1.50")
        #expect(value["s"]?.doubleValue == 4.5)
        #expect(value["l"]?.listValue == [.bool(true)])
        #expect(value["s"]?.listValue == [.string(" 4.5 ")])
        #expect(value["n"]?.listValue == [])
        #expect(value["missing"] == nil)
        #expect(JSONValue.array([])["a"] == nil)
    }

    @Test("Through Codable, numbers go through Double and an object's keys come sorted")
    func codable() throws {
        let decoded = try JSONDecoder().decode(
            JSONValue.self, from: Data(#"{"b": 1e2, "a": [true, null, "x", 0.5]}"#.utf8))
        let expected = JSONValue.object([
            JSONMember("a", .array([.bool(true), .null, .string("x"), .number(JSONNumber(literal: "0.5"))])),
            JSONMember("b", .number(JSONNumber(literal: "100"))),
        ])
        #expect(decoded == expected)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(decoded), as: UTF8.self) == #"{"a":[true,null,"x",0.5],"b":100}"#)
    }
}
