import StrictJSON
import Testing

@Suite("Leniencies: asked for one by one, each use counted")
struct JSONLeniencyTests {
    /// A case: the text, the one leniency it needs, what it parses to, and the counts it leaves.
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let leniency: JSONParser.Leniencies
        let value: JSONValue
        let counts: JSONParser.LeniencyCounts

        var testDescription: String { text }
    }

    static func counts(_ change: (inout JSONParser.LeniencyCounts) -> Void) -> JSONParser.LeniencyCounts {
        var counts = JSONParser.LeniencyCounts()
        change(&counts)
        return counts
    }

    static let one = JSONValue.number(JSONNumber(literal: "1"))

    static let cases = [
        Case(
            text: #"{"a": [1 , ] , }"#, leniency: .trailingCommas,
            value: .object([JSONMember("a", .array([one]))]), counts: counts { $0.trailingCommas = 2 }),
        Case(
            text: "[\"tab\there\", \"line\nbreak\"]", leniency: .controlCharacters,
            value: .array([.string("tab\there"), .string("line\nbreak")]), counts: counts { $0.controlCharacters = 2 }),
        Case(
            text: #"["Tom\'s \é"]"#, leniency: .invalidEscapes, value: .array([.string("Tom's é")]),
            counts: counts { $0.invalidEscapes = 2 }),
        Case(
            text: "[1]] }\n", leniency: .strayClosers, value: .array([one]), counts: counts { $0.strayClosers = "]}" }),
        Case(
            text: "{} ,\n[1]; {}", leniency: .concatenatedValues,
            value: .array([.object([]), .array([one]), .object([])]),
            counts: counts { $0.concatenatedValues = 3 }),
    ]

    @Test("Each leniency accepts its slip, counts every use, and is needed", arguments: cases)
    func leniency(_ example: Case) throws {
        let bytes = Array(example.text.utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes) }
        var others = JSONParser.Options(leniencies: JSONParser.Leniencies.all.subtracting(example.leniency))
        #expect(throws: JSONParseError.self) { try JSONParser.parse(bytes, options: others) }

        others.leniencies = example.leniency
        var used = JSONParser.LeniencyCounts()
        let value = try bytes.withUnsafeBufferPointer { buffer in
            try JSONParser.parse(buffer, options: others, counting: &used)
        }
        #expect(value == example.value)
        #expect(used == example.counts)
    }

    @Test("Valid JSON uses no leniency, even when all are allowed")
    func validUsesNone() throws {
        var used = JSONParser.LeniencyCounts()
        let bytes = Array(#"{"a": ["x\ty", 1], "b": {}} "#.utf8)
        _ = try bytes.withUnsafeBufferPointer { buffer in
            try JSONParser.parse(buffer, options: JSONParser.Options(leniencies: .all), counting: &used)
        }
        #expect(used == JSONParser.LeniencyCounts())
    }

    @Test(
        "What no leniency forgives",
        arguments: [
            ("[1,,]", JSONParseError.Problem.expectedValue, 3),
            ("{,}", .expectedKey, 1),
            ("[\"\\\u{1}\"]", .invalidEscape, 3),
            ("{}}}}}", .trailingContent, 2),
            ("{} x {}", .trailingContent, 3),
            ("{} 1", .trailingContent, 3),
            ("[\"abc", .unterminatedString(opening: 1), 5),
            ("[\"\\u12\"]", .invalidUnicodeEscape(escape: 2), 6),
            ("[\"\\ud83c\\u12\"]", .invalidUnicodeEscape(escape: 8), 12),
            ("[tru]", .invalidLiteral, 1),
            ("[01]", .leadingZeros, 3),
        ])
    func unforgiven(text: String, problem: JSONParseError.Problem, offset: Int) {
        let options = JSONParser.Options(replacesLoneSurrogates: true, leniencies: .all)
        do throws(JSONParseError) {
            let value = try JSONParser.parse(Array(text.utf8), options: options)
            Issue.record("parsed as \(value)")
        } catch {
            #expect(error.problem == problem)
            #expect(error.offset == offset)
        }
    }
}
