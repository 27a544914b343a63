import Testing
import UniversalLinks

/// Hand-written tables for the `components` format (iOS 13+): path, query string and query
/// dictionaries, fragments, exclusion, first-match order.
@Suite("components rules")
struct ComponentsTests {
    static let app = ["ABCDE12345.com.example.app"]

    /// Apple's own example from the `applinks` reference (two apps).
    static let appleExample = association(
        """
        {"applinks": {"details": [{
          "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"],
          "components": [
            {"#": "no_universal_links", "exclude": true, "comment": "fragment opt-out"},
            {"/": "/buy/*"},
            {"/": "/help/website/*", "exclude": true},
            {"/": "/help/*", "?": {"articleNumber": "????"}}
          ]}]}}
        """)

    static let appleExampleCases: [MatchCase] = [
        MatchCase("https://example.com/buy/shoes", component(1)),
        MatchCase("https://example.com/buy/", component(1)),
        MatchCase("https://example.com/buy", nil),
        MatchCase("https://example.com/buy/shoes#no_universal_links", nil),
        MatchCase("https://example.com/buy/shoes#other", component(1)),
        MatchCase("https://example.com/help/website/faq", nil),
        MatchCase("https://example.com/help/article?articleNumber=1234", component(3)),
        MatchCase("https://example.com/help/article?other=x&articleNumber=1234#top", component(3)),
        MatchCase("https://example.com/help/article?articleNumber=12345", nil),
        MatchCase("https://example.com/help/article", nil),
        // Every item with the name must match.
        MatchCase("https://example.com/help/article?articleNumber=1234&articleNumber=99", nil),
        // Percent-encoded comparison: `12%2F4` is six characters.
        MatchCase("https://example.com/help/article?articleNumber=12%2F4", nil),
        MatchCase("https://example.com/other", nil),
    ]

    @Test("Apple's documented example", arguments: appleExampleCases)
    func appleDocumented(_ matchCase: MatchCase) {
        expect(Self.appleExample, matchCase, appIDs: ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"])
    }

    static let queries = association(
        componentsFile(
            """
            [{"/": "/search", "?": "q=*"},
             {"/": "/items", "?": {"id": "?*", "ref": "*"}},
             {"/": "/flag", "?": {"debug": ""}},
             {"/": "/any", "?": {}}]
            """))

    static let queryCases: [MatchCase] = [
        MatchCase("https://example.com/search?q=shoes", component(0)),
        MatchCase("https://example.com/search?q=", component(0)),
        MatchCase("https://example.com/search", nil),
        MatchCase("https://example.com/search?x=1&q=2", nil),
        MatchCase("https://example.com/items?id=7", component(1)),
        MatchCase("https://example.com/items?id=7&ref=", component(1)),
        MatchCase("https://example.com/items?ref=a&id=%20", component(1)),
        MatchCase("https://example.com/items?id=", nil),
        // An item without `=` and an absent item both count as empty.
        MatchCase("https://example.com/items?id", nil),
        MatchCase("https://example.com/items?ref=a", nil),
        MatchCase("https://example.com/flag", component(2)),
        MatchCase("https://example.com/flag?debug", component(2)),
        MatchCase("https://example.com/flag?other=1", component(2)),
        MatchCase("https://example.com/flag?debug=1", nil),
        MatchCase("https://example.com/any?whatever=1&x", component(3)),
    ]

    @Test("Query strings and query dictionaries", arguments: queryCases)
    func query(_ matchCase: MatchCase) {
        expect(Self.queries, matchCase, appIDs: Self.app)
    }

    static let fragments = association(
        componentsFile(
            """
            [{"/": "/docs/private/*", "exclude": true},
             {"/": "/docs/*", "#": "section-?*"},
             {"#": "open-in-app"}]
            """))

    static let fragmentCases: [MatchCase] = [
        MatchCase("https://example.com/docs/a#section-2", component(1)),
        MatchCase("https://example.com/docs/a?x=1#section-intro", component(1)),
        MatchCase("https://example.com/docs/a", nil),
        MatchCase("https://example.com/docs/a#section-", nil),
        MatchCase("https://example.com/docs/a#Section-2", nil),
        // The first matching rule decides: the exclusion wins over the later fragment rule.
        MatchCase("https://example.com/docs/private/x#open-in-app", nil),
        MatchCase("https://example.com/anything/else#open-in-app", component(2)),
        MatchCase("https://example.com/anything/else", nil),
    ]

    @Test("Fragments, exclusion and first-match order", arguments: fragmentCases)
    func fragment(_ matchCase: MatchCase) {
        expect(Self.fragments, matchCase, appIDs: Self.app)
    }

    @Test("Each details entry decides for its own apps, in file order")
    func severalEntries() throws {
        let file = try #require(
            association(
                """
                {"applinks": {"details": [
                  {"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/shop/*"}, {"/": "/sale/*", "exclude": true}]},
                  {"appIDs": ["ABCDE12345.com.example.all"], "components": [{"/": "*"}]}
                ]}}
                """))
        #expect(
            file.appIDs(matching: "https://example.com/shop/x") == [
                "ABCDE12345.com.example.shop", "ABCDE12345.com.example.all",
            ])
        #expect(file.appIDs(matching: "https://example.com/sale/x") == ["ABCDE12345.com.example.all"])
        let evaluation = file.evaluate("https://example.com/shop/x")
        #expect(
            evaluation.matches.map(\.rule) == [
                "applinks.details[0].components[0]", "applinks.details[1].components[0]",
            ])
    }
}
