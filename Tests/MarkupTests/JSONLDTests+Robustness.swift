import FixtureServer
import StrictJSON
import TestSupport
import Testing

@testable import Markup

/// Hostile and large input: no crash, no hang, nothing quadratic.
@Suite("JSON-LD: hostile and large input")
struct JSONLDRobustnessTests {

    /// Parses `text` through the whole pipeline and checks the outcome is well formed, whatever it is.
    private func parseChecked(_ text: String, startLine: Int = 3) {
        switch JSONLD.parse(text, startLine: startLine) {
        case .success(let block):
            #expect(block.line == startLine)
            _ = JSONLD.entities(in: [block]).map { (JSONLD.isSchemaOrg($0), JSONLD.types(of: $0)) }
        case .failure(let error):
            #expect(error.line >= startLine)
            #expect((error.column ?? 1) >= 1)
            #expect(!error.message.isEmpty)
        }
    }

    @Test("100,000 nested brackets or objects fail with a depth error instead of crashing")
    func deepNesting() {
        let tooDeep = "nesting deeper than 512 levels"
        let brackets = String(repeating: "[", count: 100_000)
        #expect(JSONLD.parse(brackets, startLine: 1) == .failure(JSONLDError(line: 1, column: 513, message: tooDeep)))
        let closed = brackets + String(repeating: "]", count: 100_000)
        #expect(JSONLD.parse(closed, startLine: 1).isFailure)
        // Five bytes per level (`{"a":`), so the 513th level starts at column 5 × 512 + 1.
        let objects = String(repeating: "{\"a\":", count: 100_000)
        #expect(JSONLD.parse(objects, startLine: 1) == .failure(JSONLDError(line: 1, column: 2561, message: tooDeep)))
    }

    @Test("A 2 MB block parses in linear time, valid or repaired")
    func largeBlock() throws {
        let product =
            #"{"@type": "Product", "name": "Tart tin \u00e9 24 cm", "sku": "TIN-%", "offers": {"@type": "Offer", "#
            + #""price": 12.50, "priceCurrency": "EUR"}, "description": "A fluted tin with a loose base, for tarts."}"#
        let items = (0..<10_500).map { product.replacingSKU(with: String($0)) }
        let valid = "{\"@context\": \"https://schema.org\", \"@graph\": [\n" + items.joined(separator: ",\n") + "\n]}"
        #expect(valid.utf8.count > 2_000_000)
        let broken = "<!--\n" + valid + "\n};\n-->"

        let clock = ContinuousClock()
        var entities: [JSONValue] = []
        let validTime = try clock.measure {
            entities = JSONLD.entities(in: [try JSONLD.parse(valid, startLine: 1).get()])
        }
        #expect(entities.count == 10_500)
        #expect(entities[10_499]["sku"] == .string("TIN-10499"))
        #expect(entities[0]["offers"]?["price"]?.stringValue == "12.50")

        var repairs: [String] = []
        let repairedTime = try clock.measure { repairs = try JSONLD.parse(broken, startLine: 1).get().repairs }
        #expect(repairs == ["removed HTML comment wrapper", "removed trailing ';'", "removed stray '}' at end"])
        // Guards against quadratic behaviour, not performance targets (those live in Benchmarks/):
        // a linear parse takes a fraction of a second even in a debug build on a loaded machine.
        #expect(validTime < .seconds(30), "valid 2 MB block took \(validTime)")
        #expect(repairedTime < .seconds(30), "repaired 2 MB block took \(repairedTime)")
    }

    /// A long hostile input, described briefly so test reports stay readable.
    struct Pathological: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String

        var testDescription: String { name }
    }

    // Sizes where a quadratic step would take minutes, while linear work takes a fraction of a second even in a
    // debug build sharing two cores with other tests.
    static let pathologicalInputs = [
        Pathological(name: "';-->' × 100k", text: String(repeating: ";-->", count: 100_000)),
        Pathological(name: "'&quot;' × 100k", text: String(repeating: "&quot;", count: 100_000)),
        Pathological(name: "'&' × 500k", text: String(repeating: "&", count: 500_000)),
        Pathological(name: "'{}' then '}' × 500k", text: "{}" + String(repeating: "}", count: 500_000)),
        Pathological(name: "'{}' × 100k", text: String(repeating: "{}", count: 100_000)),
        Pathological(name: "'{},' × 100k", text: String(repeating: "{},", count: 100_000)),
        Pathological(
            name: "lone surrogates × 100k", text: "[\"" + String(repeating: "\\ud800", count: 100_000) + "\"]"),
        Pathological(name: "unclosed block comment", text: "/*" + String(repeating: "*", count: 500_000)),
        Pathological(name: "long line comment", text: "1\n//" + String(repeating: "*", count: 500_000)),
        Pathological(name: "500k line breaks", text: String(repeating: "\n", count: 500_000) + "x"),
        Pathological(name: "100k-element array", text: "[" + String(repeating: "1,", count: 100_000) + "]"),
    ]

    @Test("Pathological repetitions finish quickly", arguments: pathologicalInputs)
    func pathological(_ input: Pathological) {
        let time = ContinuousClock().measure { parseChecked(input.text) }
        // Linear work takes milliseconds; quadratic work on these sizes takes minutes. The bound is
        // loose because the whole suite shares two cores (1.09 s seen once under load).
        #expect(time < .seconds(30), "took \(time)")
    }

    @Test("Random bytes never crash the parser or produce a malformed error")
    func randomBytes() {
        var generator = SeededRandom(seed: 0x5EED_0001)
        // Mostly JSON punctuation and repair triggers, so the random text reaches deep into the grammar.
        let alphabet =
            Array("{}[]\":,;\\ \n\t\r-0.1eE+truefalsnul<!-->&quot;#x27CDATA/*u00d8".utf8) + [0x00, 0xC3, 0xFF]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0..<64, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator) ?? 0 : UInt8.random(in: 0...255, using: &generator)
            }
            parseChecked(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test("Mutations of realistic blocks never crash the parser")
    func mutatedFixtures() throws {
        var generator = SeededRandom(seed: 0x5EED_0002)
        let files = ["recipe-comment.html", "graph.html", "entity-escaped.html", "cdata.html", "broken.html"]
        let texts = try files.flatMap { try JSONLDFixture.blocks(in: $0).map { Array($0.text.utf8) } }
        for text in texts {
            for _ in 0..<300 {
                var bytes = text
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(bytes[Int.random(in: 0..<bytes.count, using: &generator)], at: index)
                    }
                }
                parseChecked(String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}

extension Result<JSONLDBlock, JSONLDError> {
    /// Whether parsing failed.
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}

extension String {
    /// The template with its `%` replaced by `sku` (no Foundation needed).
    fileprivate func replacingSKU(with sku: String) -> String {
        split(separator: "%", omittingEmptySubsequences: false).joined(separator: sku)
    }
}
