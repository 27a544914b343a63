import StrictJSON
import Testing

@testable import Markup

/// Flattening blocks into entities, recognising schema.org, and reading types.
@Suite("JSON-LD: entities and vocabulary")
struct JSONLDVocabularyTests {
    /// The block parsed from `text`, failing the test when it does not parse.
    private func block(_ text: String, line: Int = 1) throws -> JSONLDBlock {
        try JSONLD.parse(text, startLine: line).get()
    }

    @Test("Top-level arrays and arrays of arrays flatten; only objects are kept; page order is kept")
    func arraysFlatten() throws {
        let blocks = [
            try block(#"[{"@type": "A"}, "text", 3, null, [[{"@type": "B"}], [{"@type": "C"}]]]"#),
            try block(#""a string block""#),
            try block(#"{"@type": "D"}"#),
        ]
        #expect(JSONLD.entities(in: blocks).flatMap(JSONLD.types(of:)) == ["A", "B", "C", "D"])
    }

    @Test("@graph nodes get the graph's @context unless they have their own")
    func graphContext() throws {
        let entities = JSONLD.entities(in: [
            try block(
                #"""
                {"@context": "https://schema.org", "@graph": [
                  {"@type": "WebPage", "name": "p"},
                  {"@context": {"@vocab": "https://example.org/"}, "@type": "Thing"},
                  [{"@type": "Person"}],
                  "not a node"
                ]}
                """#)
        ])
        #expect(entities.count == 3)
        guard case .object(let members) = entities[0] else { return }
        #expect(members.map(\.key) == ["@context", "@type", "name"])
        #expect(entities[0]["@context"] == .string("https://schema.org"))
        #expect(entities[1]["@context"] == .object([JSONMember("@vocab", .string("https://example.org/"))]))
        #expect(entities[2]["@context"] == .string("https://schema.org"))
        #expect(entities.map(JSONLD.isSchemaOrg) == [true, false, true])
    }

    @Test("A graph without a context, a single-node graph, and a typed (named) graph")
    func graphShapes() throws {
        let plain = JSONLD.entities(in: [try block(#"{"@graph": [{"@type": "Recipe"}]}"#)])
        #expect(plain == [.object([JSONMember("@type", .string("Recipe"))])])

        let single = JSONLD.entities(in: [
            try block(#"{"@context": "http://schema.org/", "@graph": {"@type": "Event"}}"#)
        ])
        #expect(
            single == [
                .object([JSONMember("@context", .string("http://schema.org/")), JSONMember("@type", .string("Event"))])
            ])

        let named = JSONLD.entities(in: [
            try block(#"{"@context": "https://schema.org", "@type": "Dataset", "@graph": [{"@type": "Place"}]}"#)
        ])
        #expect(named.map(JSONLD.types(of:)) == [["Dataset"], ["Place"]])
        #expect(named[0]["@graph"] == nil)
        #expect(named[1]["@context"] == .string("https://schema.org"))
    }

    @Test(
        "schema.org contexts are recognised in every common spelling",
        arguments: [
            JSONValue.string("http://schema.org"),
            .string("https://schema.org"),
            .string("http://schema.org/"),
            .string("https://schema.org/"),
            .string(" HTTPS://Schema.org/ "),
            .string("https://www.schema.org"),
            .string("https://schema.org/docs/jsonldcontext.json"),
            .object([JSONMember("@vocab", .string("http://schema.org/"))]),
            .object([JSONMember("@vocab", .string("https://schema.org/")), JSONMember("@language", .string("en"))]),
            .array([.string("https://schema.org"), .object([JSONMember("@language", .string("en"))])]),
            .array([.object([JSONMember("@vocab", .string("https://schema.org/"))])]),
        ])
    func schemaOrgContext(_ context: JSONValue) {
        #expect(JSONLD.isSchemaOrg(.object([JSONMember("@context", context), JSONMember("@type", .string("Recipe"))])))
        #expect(JSONLD.isSchemaOrg(.object([JSONMember("@context", context)])))
    }

    @Test(
        "Other contexts are not schema.org, even with a schema.org-looking bare type",
        arguments: [
            JSONValue.string("https://example.org/vocab"),
            .string("https://schema.org.example.com/"),
            .string("schema.org"),
            .string("ftp://schema.org/"),
            .object([JSONMember("@vocab", .string("https://example.org/"))]),
            .object([JSONMember("schema", .string("https://schema.org/"))]),
            .array([]),
            .number(literal: "1"),
        ])
    func otherContext(_ context: JSONValue) {
        #expect(
            !JSONLD.isSchemaOrg(.object([JSONMember("@context", context), JSONMember("@type", .string("Recipe"))])))
    }

    @Test(
        "Without a context, the type decides",
        arguments: [
            ("Recipe", true), ("LocalBusiness", true), ("3DModel", true), ("schema:Recipe", true),
            ("http://schema.org/Recipe", true), ("https://schema.org/Recipe", true), ("recipe", false),
            ("foaf:Person", false), ("https://example.org/Thing", false), ("Recipe Card", false), ("", false),
        ])
    func typeWithoutContext(_ type: String, _ expected: Bool) {
        #expect(JSONLD.isSchemaOrg(.object([JSONMember("@type", .string(type))])) == expected)
        #expect(
            JSONLD.isSchemaOrg(.object([JSONMember("@context", .null), JSONMember("@type", .string(type))])) == expected
        )
    }

    @Test("An explicit schema.org type counts under any context; a declared prefix is honoured")
    func explicitTypes() {
        let foreign = JSONValue.string("https://example.org/vocab")
        #expect(
            JSONLD.isSchemaOrg(
                .object([JSONMember("@context", foreign), JSONMember("@type", .string("http://schema.org/Recipe"))])))
        #expect(!JSONLD.isSchemaOrg(.object([JSONMember("@context", foreign)])))
        #expect(!JSONLD.isSchemaOrg(.object([JSONMember("name", .string("no type, no context"))])))

        let prefixed = JSONValue.object([
            JSONMember("@context", .object([JSONMember("sdo", .string("https://schema.org/"))])),
            JSONMember("@type", .string("sdo:Recipe")),
        ])
        #expect(JSONLD.isSchemaOrg(prefixed))
        #expect(JSONLD.types(of: prefixed) == ["Recipe"])
    }

    @Test(
        "Types lose their schema.org prefix and nothing else",
        arguments: [
            (JSONValue.string("http://schema.org/Recipe"), ["Recipe"]),
            (.string("https://schema.org/Recipe"), ["Recipe"]),
            (.string("schema:Recipe"), ["Recipe"]),
            (.string(" Recipe "), ["Recipe"]),
            (.array([.string("Recipe"), .string("schema:HowTo"), .string("")]), ["Recipe", "HowTo"]),
            (.string("foaf:Person"), ["foaf:Person"]),
            (.string("https://example.org/Thing"), ["https://example.org/Thing"]),
            (.number(literal: "7"), []),
        ])
    func types(_ type: JSONValue, _ expected: [String]) {
        #expect(JSONLD.types(of: .object([JSONMember("@type", type)])) == expected)
    }

    @Test("An entity without @type has no types; a non-object has none either")
    func noTypes() {
        #expect(JSONLD.types(of: .object([JSONMember("name", .string("x"))])).isEmpty)
        #expect(JSONLD.types(of: .string("Recipe")).isEmpty)
        #expect(!JSONLD.isSchemaOrg(.array([])))
    }
}
