import FixtureServer
import StrictJSON
import Testing

@testable import Markup

/// The fixture pages under `Fixtures/pages/jsonld/`: realistic blocks with the breakage found on the web.
@Suite("JSON-LD blocks from real-world pages")
struct JSONLDTests {
    /// One fixture page whose single block needs repairs, the repairs expected (exactly, in order), and a member
    /// of the repaired value that proves the content came through.
    struct RepairCase: CustomTestStringConvertible, Sendable {
        let file: String
        let repairs: [String]
        let key: String
        let expected: JSONValue

        var testDescription: String { file }
    }

    static let repairCases: [RepairCase] = [
        RepairCase(
            file: "recipe-comment.html", repairs: ["removed HTML comment wrapper"],
            key: "name", expected: .string("Lemon tart")),
        RepairCase(
            file: "product-semicolon.html", repairs: ["removed trailing ';'"],
            key: "sku", expected: .string("TIN-24")),
        RepairCase(
            file: "organization-newline.html", repairs: ["escaped 2 control characters in strings"],
            key: "description", expected: .string("Recipes tested in a small kitchen.\nNew ones every Friday.")),
        RepairCase(
            file: "entity-escaped.html", repairs: ["decoded 31 HTML entities"],
            key: "headline", expected: .string("Tom's & Jerry's kitchen")),
        RepairCase(
            file: "cdata.html", repairs: ["removed CDATA wrapper"],
            key: "telephone", expected: .string("+1-555-0142")),
        RepairCase(
            file: "extra-brace.html", repairs: ["removed stray '}' at end"],
            key: "headline", expected: .string("Why rye needs time")),
        RepairCase(
            file: "trailing-comma.html", repairs: ["removed 3 trailing commas"],
            key: "keywords", expected: .array([.string("bread"), .string("sourdough")])),
    ]

    @Test(
        "Each kind of breakage is repaired and recorded; the block is not valid JSON without the repair",
        arguments: repairCases)
    func repairsFixture(_ fixture: RepairCase) throws {
        let blocks = try JSONLDFixture.blocks(in: fixture.file)
        let script = try #require(blocks.first)
        #expect(blocks.count == 1)
        // Without the repair the block is not JSON at all: the strict parser refuses it.
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse(Array(script.text.utf8), options: JSONLD.strictOptions)
        }

        let block = try JSONLD.parse(script.text, startLine: script.line).get()
        #expect(block.repairs == fixture.repairs)
        #expect(block.line == script.line)
        #expect(block.value[fixture.key] == fixture.expected)
        #expect(JSONLD.isSchemaOrg(block.value))
    }

    @Test("The repaired values keep what the page said")
    func repairedDetails() throws {
        let product = try JSONLDFixture.parsedBlock(in: "product-semicolon.html")
        #expect(product.value["offers"]?["price"] == .number(literal: "12.50"))
        #expect(product.value["offers"]?["price"]?.stringValue == "12.50")

        let organization = try JSONLDFixture.parsedBlock(in: "organization-newline.html")
        #expect(organization.value["slogan"] == .string("Bake it twice\tthen share"))

        let article = try JSONLDFixture.parsedBlock(in: "entity-escaped.html")
        #expect(article.value["author"]?["name"] == .string("Ann <Baker>"))
        #expect(JSONLD.types(of: article.value) == ["Article"])

        let recipe = try JSONLDFixture.parsedBlock(in: "recipe-comment.html")
        #expect(recipe.value["aggregateRating"]?["ratingValue"]?.doubleValue == 4.7)
    }

    @Test("Concatenated objects in one block become an array of entities")
    func concatenated() throws {
        let block = try JSONLDFixture.parsedBlock(in: "concatenated.html")
        #expect(block.repairs == ["wrapped 2 concatenated top-level values in an array"])
        let entities = JSONLD.entities(in: [block])
        #expect(entities.map(JSONLD.types(of:)) == [["WebPage"], ["BreadcrumbList"]])
    }

    @Test("A @graph of three nodes flattens into three schema.org entities, each given the graph's context")
    func graphFixture() throws {
        let block = try JSONLDFixture.parsedBlock(in: "graph.html")
        #expect(block.repairs.isEmpty)
        let entities = JSONLD.entities(in: [block])
        #expect(entities.map(JSONLD.types(of:)) == [["WebSite"], ["Organization"], ["BreadcrumbList"]])
        for entity in entities {
            #expect(entity["@context"] == .string("https://schema.org"))
            #expect(JSONLD.isSchemaOrg(entity))
        }
        #expect(entities[0]["potentialAction"]?["@type"] == .string("SearchAction"))
    }

    @Test("A truly broken block is located in the page and costs none of its siblings")
    func brokenBlockKeepsSiblings() throws {
        let scripts = try JSONLDFixture.blocks(in: "broken.html")
        #expect(scripts.map(\.line) == [6, 14, 23])
        let results = scripts.map { JSONLD.parse($0.text, startLine: $0.line) }

        let first = try results[0].get()
        let last = try results[2].get()
        #expect(JSONLD.entities(in: [first, last]).flatMap(JSONLD.types(of:)) == ["Organization", "WebSite"])

        // Line 19 of the page, `  "sku": …`, follows `"name": "Rye flour, 1 kg"` with no comma.
        guard case .failure(let error) = results[1] else {
            Issue.record("the broken block parsed")
            return
        }
        #expect(
            error == JSONLDError(line: 19, column: 3, message: "expected ',' or '}' after object member, found '\"'"))
        #expect(error.description == "line 19, column 3: expected ',' or '}' after object member, found '\"'")
    }
}

/// Reads fixture pages and cuts out their JSON-LD script blocks the way the HTML reader hands them over: the text
/// between `<script type="application/ld+json">` and `</script>`, with the page line on which that text starts.
enum JSONLDFixture {
    /// The blocks of `Fixtures/pages/jsonld/<file>`, in page order.
    static func blocks(in file: String) throws -> [(text: String, line: Int)] {
        let page = try Fixtures.bytes("pages/jsonld/" + file)
        let opening = Array("<script type=\"application/ld+json\">".utf8)
        let closing = Array("</script>".utf8)
        var blocks: [(text: String, line: Int)] = []
        var index = 0
        while let start = find(opening, in: page, from: index), let end = find(closing, in: page, from: start) {
            let textStart = start + opening.count
            let line = page[..<textStart].filter { $0 == 0x0A }.count + 1
            blocks.append((String(decoding: page[textStart..<end], as: UTF8.self), line))
            index = end + closing.count
        }
        return blocks
    }

    /// The only block of a fixture page, parsed.
    static func parsedBlock(in file: String) throws -> JSONLDBlock {
        let script = try #require(try blocks(in: file).first)
        return try JSONLD.parse(script.text, startLine: script.line).get()
    }

    /// The first index at or after `start` where `needle` occurs in `bytes`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
