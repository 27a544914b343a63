import Testing
import UniversalLinks

/// The legacy `paths` format (iOS 12 and earlier): path only, `NOT ` excludes, first match decides,
/// case-sensitive; and files mixing it with `components`.
@Suite("Legacy paths and mixed formats")
struct LegacyPathsTests {
    static let app = ["ABCDE12345.com.example.one"]

    static let file = association(
        """
        {"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.one", "paths": [
          "NOT /settings/*", "NOT /activity", "/wwdc/news/", "/videos/wwdc/2015/*", "/books/1?", "/item/?*",
          "/$(digit)", "/*/profile"
        ]}]}}
        """)

    static let cases: [MatchCase] = [
        MatchCase("https://example.com/settings/privacy", nil),
        MatchCase("https://example.com/activity", nil),
        MatchCase("https://example.com/wwdc/news/", pathRule(2)),
        MatchCase("https://example.com/wwdc/news", nil),
        // Query and fragment are never looked at.
        MatchCase("https://example.com/wwdc/news/?q=1#top", pathRule(2)),
        MatchCase("https://example.com/videos/wwdc/2015/", pathRule(3)),
        MatchCase("https://example.com/videos/wwdc/2015/a/b", pathRule(3)),
        MatchCase("https://example.com/Videos/wwdc/2015/a", nil),
        MatchCase("https://example.com/books/12", pathRule(4)),
        MatchCase("https://example.com/books/1", nil),
        MatchCase("https://example.com/books/123", nil),
        MatchCase("https://example.com/item/a", pathRule(5)),
        MatchCase("https://example.com/item/", nil),
        // Substitution variables came with components: in paths, `$(digit)` is literal text.
        MatchCase("https://example.com/$(digit)", pathRule(6)),
        MatchCase("https://example.com/1", nil),
        MatchCase("https://example.com/jay/profile", pathRule(7)),
        // An exclusion wins over the later `/*/profile`, but `NOT /activity` covers that path exactly.
        MatchCase("https://example.com/settings/profile", nil),
        MatchCase("https://example.com/activity/profile", pathRule(7)),
    ]

    @Test("NOT, wildcards and order", arguments: cases)
    func legacyPath(_ matchCase: MatchCase) {
        expect(Self.file, matchCase, appIDs: Self.app)
    }

    @Test("Apple's legacy example: the second app takes what the first does not; an 8-character team ID is flagged")
    func appleLegacyExample() throws {
        let file = try #require(
            association(
                """
                {"applinks": {"apps": [], "details": [
                  {"appID": "9JA89QQLNQ.com.apple.wwdc", "paths": ["/wwdc/news/", "/videos/wwdc/2015/*"]},
                  {"appID": "ABCD1234.com.apple.wwdc", "paths": ["*"]}
                ]}}
                """))
        #expect(
            file.appIDs(matching: "https://developer.apple.com/wwdc/news/") == [
                "9JA89QQLNQ.com.apple.wwdc", "ABCD1234.com.apple.wwdc",
            ])
        #expect(file.appIDs(matching: "https://developer.apple.com/other") == ["ABCD1234.com.apple.wwdc"])
        #expect(file.issues.map(\.kind) == [.invalidAppID])
        #expect(file.issues.first?.location == "applinks.details[1]")
    }

    @Test("components wins over paths in the same entry; entries of both formats mix in one file")
    func bothFormats() throws {
        let file = try #require(
            association(
                """
                {"applinks": {"details": [
                  {"appIDs": ["ABCDE12345.com.example.new"], "appID": "ABCDE12345.com.example.new",
                   "components": [{"/": "/new/*"}], "paths": ["/old/*"]},
                  {"appID": "ABCDE12345.com.example.legacy", "paths": ["NOT /new/private", "/new/*", "/old/*"]}
                ]}}
                """))
        #expect(file.details.map(\.format) == [.components, .paths])
        #expect(file.issues.map(\.kind) == [.pathsIgnored])
        #expect(file.issues.first?.location == "applinks.details[0].paths")
        #expect(
            file.appIDs(matching: "https://example.com/new/x") == [
                "ABCDE12345.com.example.new", "ABCDE12345.com.example.legacy",
            ])
        #expect(file.appIDs(matching: "https://example.com/old/x") == ["ABCDE12345.com.example.legacy"])
        #expect(file.appIDs(matching: "https://example.com/new/private") == ["ABCDE12345.com.example.new"])
        #expect(file.evaluate("https://example.com/old/x").matches.map(\.rule) == ["applinks.details[1].paths[2]"])
    }
}
