import StrictJSON
import Testing

@testable import Markup

/// Repairs of broken blocks, one kind per row, and how the error of a block that stays broken is chosen.
@Suite("JSON-LD: repairs and errors")
struct JSONLDRepairTests {
    @Test(
        "Each repair is made, recorded in order, and needed",
        arguments: [
            ("\u{FEFF}{\"a\": 1}", ["removed byte order mark"]),
            ("<!--\n{\"a\": 1}\n//-->", ["removed HTML comment wrapper"]),
            ("<![CDATA[{\"a\": 1}]]>", ["removed CDATA wrapper"]),
            ("/* <![CDATA[ */ {\"a\": 1} /* ]]> */", ["removed CDATA wrapper"]),
            ("// <![CDATA[\n{\"a\": 1}\n// ]]>", ["removed CDATA wrapper"]),
            ("<!--//<![CDATA[\n{\"a\": 1}\n//]]>-->", ["removed HTML comment wrapper", "removed CDATA wrapper"]),
            ("// structured data\n{\"a\": 1}", ["removed JavaScript comment"]),
            ("{\"a\": 1};;\n", ["removed trailing ';'"]),
            ("<!-- {\"a\": 1}; -->", ["removed HTML comment wrapper", "removed trailing ';'"]),
            ("{\"a\": [1,],}", ["removed 2 trailing commas"]),
            ("{\"a\": \"tab\there\"}", ["escaped 1 control character in strings"]),
            ("{\"a\": \"Tom\\'s\"}", ["dropped the backslash of 1 invalid escape"]),
            ("{\"a\": {\"b\": 1}}}}", ["removed stray '}}' at end"]),
            ("[{\"a\": 1}]]", ["removed stray ']' at end"]),
            ("{\"a\": 1}\n{\"b\": 2}", ["wrapped 2 concatenated top-level values in an array"]),
            (
                "{\"a\": 1},\n{\"b\": 2};",
                ["removed trailing ';'", "wrapped 2 concatenated top-level values in an array"]
            ),
            ("{&quot;a&quot;: 1}", ["decoded 2 HTML entities"]),
            ("&lt;!--{&#34;a&#x22;:1}--&gt;", ["decoded 4 HTML entities", "removed HTML comment wrapper"]),
        ])
    func repairs(_ text: String, _ expected: [String]) throws {
        #expect(JSONLDParserTests.failure(text) != nil, "valid as written, so nothing to repair")
        let block = try JSONLD.parse(text, startLine: 7).get()
        #expect(block.repairs == expected)
        #expect(block.line == 7)
        #expect(JSONLD.entities(in: [block]).isEmpty == false)
    }

    @Test("Repaired values are what the author meant")
    func repairedValues() throws {
        #expect(try JSONLD.parse("{\"a\": \"Tom\\'s\"}", startLine: 1).get().value["a"] == .string("Tom's"))
        #expect(try JSONLD.parse("{\"a\": \"x\ny\"}", startLine: 1).get().value["a"] == .string("x\ny"))
        let concatenated = try JSONLD.parse("{\"a\": 1} {\"b\": 2}", startLine: 1).get().value
        #expect(
            concatenated
                == .array([
                    .object([JSONMember("a", .number(literal: "1"))]),
                    .object([JSONMember("b", .number(literal: "2"))]),
                ]))
        let decoded = JSONLD.parse("{&quot;a&quot;: &quot;&lt;&amp;&#233;&#x1F34B;&apos;&#0;&quot;}", startLine: 1)
        #expect(try decoded.get().value["a"] == .string("<&é🍋'\u{FFFD}"))
    }

    @Test(
        "Valid JSON is taken as written, never repaired",
        arguments: [
            "\n\n  {\"a\": \"say &quot;hi&quot; <!-- not a wrapper --> ;\"}  \n",
            "[{\"a\": \"]]>\"}]",
            "\"just a string\"",
        ])
    func validIsUntouched(_ text: String) throws {
        let strict = try JSONParser.parse(Array(text.utf8), options: JSONLD.strictOptions)
        let block = try JSONLD.parse(text, startLine: 3).get()
        #expect(block.repairs.isEmpty)
        #expect(block.value == strict)
    }

    @Test("Entity decoding is the last resort: a block fixed another way keeps its entities")
    func entitiesLast() throws {
        let block = try JSONLD.parse("{\"a\": \"say &quot;hi&quot;\",}", startLine: 1).get()
        #expect(block.repairs == ["removed 1 trailing comma"])
        #expect(block.value["a"] == .string("say &quot;hi&quot;"))
    }

    @Test(
        "A block that stays broken reports the problem left after repair, located in the text as written",
        arguments: [
            // The wrapper is not the problem: the missing comma on the block's third line is.
            ("<!--\n{\"a\": 1\n \"b\": 2}\n-->", 12, 2, "expected ',' or '}' after object member, found '\"'"),
            // Located in the escaped text: column 19 is the `&` of the `&quot;` that should follow a comma.
            ("{&quot;a&quot;: 1 &quot;b&quot;: 2}", 10, 19, "expected ',' or '}' after object member, found '\"'"),
            // The raw line break is forgiven; what is left is the missing comma after it.
            ("{\"a\": \"x\ny\" \"b\": 1}", 11, 4, "expected ',' or '}' after object member, found '\"'"),
            // Nothing to repair: the strict error stands.
            ("{\"a\": 1,\n\"b\": }", 11, 6, "expected a value, found '}'"),
            ("<!-- -->", 10, 9, "expected a value, found end of input"),
            ("[1, 2] [3] x", 10, 12, "expected end of input after the JSON value, found 'x'"),
        ])
    func remainingError(_ text: String, line: Int, column: Int, message: String) {
        let result = JSONLD.parse(text, startLine: 10)
        #expect(result == .failure(JSONLDError(line: line, column: column, message: message)))
    }

    @Test("An empty block is an error without a column")
    func emptyBlock() {
        #expect(
            JSONLD.parse("", startLine: 5) == .failure(JSONLDError(line: 5, column: nil, message: "the block is empty"))
        )
        #expect(JSONLD.parse(" \n\t ", startLine: 5).failureDescription == "line 5: the block is empty")
    }

    @Test("Depth beyond the limit fails the block even with every repair tried")
    func depthAfterRepair() {
        let text = "<!--" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "-->"
        #expect(
            JSONLD.parse(text, startLine: 1)
                == .failure(
                    JSONLDError(line: 1, column: 517, message: "nesting deeper than 512 levels")))
    }
}

extension Result<JSONLDBlock, JSONLDError> {
    /// The error's description, `nil` for a parsed block.
    fileprivate var failureDescription: String? {
        guard case .failure(let error) = self else { return nil }
        return error.description
    }
}

@Suite("JSON-LD comments between tokens")
struct JSONLDInteriorCommentTests {
    @Test(
        "A leading HTML comment, line comments and block comments between tokens are removed",
        arguments: [
            "<!-- John joined the festival. -->\n{\"@type\": \"JoinAction\", \"name\": \"x\"}",
            "{\"@type\": \"JoinAction\", // category\n \"name\": \"x\", //\"interactionCount\": \"\"\n}",
            "{\"@type\": /* inline */ \"JoinAction\", \"name\": \"x\"}",
        ])
    func interiorComments(text: String) throws {
        let block = try JSONLD.parse(text, startLine: 1).get()
        #expect(block.value["@type"] == .string("JoinAction"))
        #expect(block.value["name"] == .string("x"))
        #expect(!block.repairs.isEmpty)
    }

    @Test("Comment-like text inside strings is kept")
    func insideStrings() throws {
        let block = try JSONLD.parse(
            "{\"url\": \"https://x.org/a\", \"note\": \"<!-- not a comment -->\"} ;", startLine: 1
        ).get()
        #expect(block.value["url"] == .string("https://x.org/a"))
        #expect(block.value["note"] == .string("<!-- not a comment -->"))
    }

    @Test("Many unclosed comment openers stay linear")
    func hostile() {
        let text = String(repeating: "<!--", count: 200_000)
        let started = ContinuousClock.now
        _ = JSONLD.parse(text, startLine: 1)
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
