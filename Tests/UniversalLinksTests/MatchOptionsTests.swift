import Testing
import UniversalLinks

/// `caseSensitive`, `percentEncoded` and their inheritance: rule, then entry `defaults`, then
/// `applinks.defaults`, then `true`.
@Suite("caseSensitive, percentEncoded and defaults")
struct MatchOptionsTests {
    static let app = ["ABCDE12345.com.example.app"]

    static let caseless = association(
        componentsFile(
            """
            [{"/": "/Exact", "caseSensitive": true},
             {"/": "/Buy/*", "#": "my_great_product_123"},
             {"/": "/v$(upper)/*"}]
            """, detailExtra: #""defaults": {"caseSensitive": false}, "#))

    static let caselessCases: [MatchCase] = [
        MatchCase("https://example.com/Exact", component(0)),
        MatchCase("https://example.com/exact", nil),
        MatchCase("https://example.com/buy/x#MY_GREAT_PRODUCT_123", component(1)),
        MatchCase("https://example.com/BUY/x#my_great_product_123", component(1)),
        MatchCase("https://example.com/buy/x#other", nil),
        // Case-insensitively, `$(upper)` accepts either case.
        MatchCase("https://example.com/va/1", component(2)),
        MatchCase("https://example.com/V1/1", nil),
    ]

    @Test("caseSensitive false from the entry's defaults, overridden per rule", arguments: caselessCases)
    func caseInsensitive(_ matchCase: MatchCase) {
        expect(Self.caseless, matchCase, appIDs: Self.app)
    }

    @Test("Entry defaults override the file's defaults, rules override both")
    func inheritance() throws {
        let file = try #require(
            association(
                componentsFile(
                    #"[{"/": "/a"}, {"/": "/b", "caseSensitive": false}]"#,
                    extra: #""defaults": {"caseSensitive": false, "percentEncoded": false}, "#,
                    detailExtra: #""defaults": {"caseSensitive": true}, "#)))
        let rules = try #require(file.details.first?.rules)
        #expect(rules.map(\.caseSensitive) == [true, false])
        #expect(rules.map(\.percentEncoded) == [false, false])
        #expect(file.appIDs(matching: "https://example.com/A").isEmpty)
        #expect(file.appIDs(matching: "https://example.com/B") == Self.app)
    }

    static let encoding = association(
        componentsFile(
            """
            [{"/": "/caf%C3%A9/*"},
             {"/": "/thé/*", "percentEncoded": false},
             {"/": "/100%/*", "percentEncoded": false},
             {"/": "/a%2Fb"},
             {"/": "/c/d", "percentEncoded": false},
             {"/": "/q", "?": {"name": "José"}, "percentEncoded": false},
             {"/": "/space here", "percentEncoded": false}]
            """))

    static let encodingCases: [MatchCase] = [
        // percentEncoded true (default): compared as sent; escape case does not matter, raw
        // non-ASCII in the URL string is encoded as a browser would send it.
        MatchCase("https://example.com/caf%C3%A9/menu", component(0)),
        MatchCase("https://example.com/caf%c3%a9/menu", component(0)),
        MatchCase("https://example.com/café/menu", component(0)),
        MatchCase("https://example.com/cafe/menu", nil),
        // percentEncoded false: the URL is decoded first, so plain Unicode patterns match.
        MatchCase("https://example.com/th%C3%A9/vert", component(1)),
        MatchCase("https://example.com/thé/vert", component(1)),
        MatchCase("https://example.com/100%25/x", component(2)),
        MatchCase("https://example.com/a%2Fb", component(3)),
        MatchCase("https://example.com/a/b", nil),
        MatchCase("https://example.com/c%2Fd", component(4)),
        MatchCase("https://example.com/q?name=Jos%C3%A9", component(5)),
        MatchCase("https://example.com/q?name=Jose", nil),
        MatchCase("https://example.com/space%20here", component(6)),
    ]

    @Test("percentEncoded true compares encoded text, false compares decoded text", arguments: encodingCases)
    func percentEncoding(_ matchCase: MatchCase) {
        expect(Self.encoding, matchCase, appIDs: Self.app)
    }

    @Test("A non-ASCII pattern compared percent-encoded is flagged as unreachable")
    func unreachableUnicode() throws {
        let file = try #require(association(componentsFile(#"[{"/": "/thé/*"}]"#)))
        #expect(file.issues.map(\.kind) == [.unreachablePattern])
        #expect(file.issues.first?.location == #"applinks.details[0].components[0]["/"]"#)
        #expect(file.issues.first?.reason.contains("\"percentEncoded\": false") == true)
        #expect(file.appIDs(matching: "https://example.com/th%C3%A9/x").isEmpty)
    }
}
