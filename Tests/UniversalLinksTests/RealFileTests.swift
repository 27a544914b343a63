import FixtureServer
import Testing
import UniversalLinks

/// The real files in `Fixtures/conformance/aasa/` (see `SOURCE.md` there). Expectations are read off
/// the files against Apple's rules: first matching rule decides, `*` crosses `/`, patterns cover the
/// whole path, matching is case-sensitive by default, and rules without `?`/`#` ignore query and fragment.
@Suite("Real apple-app-site-association files")
struct RealFileTests {
    static func load(_ name: String) throws -> AppSiteAssociation {
        try AppSiteAssociation(bytes: try Fixtures.bytes("conformance/aasa/" + name))
    }

    // MARK: www.mozilla.org: components, appID given as an array

    static let mozillaApps = [
        "43AQ936H96.org.mozilla.ios.Firefox", "43AQ936H96.org.mozilla.ios.FirefoxBeta",
        "43AQ936H96.org.mozilla.ios.Fennec",
    ]
    static let mozilla = try? load("www.mozilla.org__apple-app-site-association.json")
    static let getIOS = "https://www.mozilla.org/en-US/firefox/browsers/mobile/get-ios/"

    @Test("www.mozilla.org: three apps, two components rules, one issue for the appID array")
    func mozillaStructure() throws {
        let file = try #require(Self.mozilla)
        #expect(file.details.count == 1)
        #expect(file.details.first?.appIDs == Self.mozillaApps)
        #expect(file.details.first?.format == .components)
        #expect(
            file.details.first?.rules.map(\.path) == [
                "/en-US/firefox/browsers/mobile/get-ios/*", "/*/firefox/browsers/mobile/get-ios/",
            ])
        #expect(file.details.first?.rules.first?.comment?.hasPrefix("Matches any URL") == true)
        #expect(file.issues.map(\.kind) == [.appIDArray])
        #expect(file.issues.first?.location == "applinks.details[0].appID")
    }

    static let mozillaCases: [MatchCase] = [
        MatchCase(getIOS, component(0)),
        MatchCase(getIOS + "?utm_source=www.mozilla.org&utm_medium=referral", component(0)),
        MatchCase(getIOS + "#download", component(0)),
        MatchCase(getIOS + "deeper/page.html", component(0)),
        MatchCase("https://www.mozilla.org/de/firefox/browsers/mobile/get-ios/", component(1)),
        MatchCase("https://www.mozilla.org/pt-BR/firefox/browsers/mobile/get-ios/?x=1", component(1)),
        // `*` crosses `/` and may be empty.
        MatchCase("https://www.mozilla.org/a/b/firefox/browsers/mobile/get-ios/", component(1)),
        MatchCase("https://www.mozilla.org//firefox/browsers/mobile/get-ios/", component(1)),
        // Case-sensitive: rule 0 misses, rule 1's `*` takes the lower-cased locale.
        MatchCase("https://www.mozilla.org/en-us/firefox/browsers/mobile/get-ios/", component(1)),
        // Despite rule 0's comment, its pattern needs the trailing slash; rule 1 needs it too.
        MatchCase("https://www.mozilla.org/en-US/firefox/browsers/mobile/get-ios", nil),
        MatchCase("https://www.mozilla.org/de/firefox/browsers/mobile/get-ios/deeper", nil),
        MatchCase("https://www.mozilla.org/firefox/browsers/mobile/get-ios/", nil),
        MatchCase("https://www.mozilla.org/EN-US/FIREFOX/BROWSERS/MOBILE/GET-IOS/", nil),
        MatchCase("https://www.mozilla.org/en-US/firefox/browsers/mobile/get-android/", nil),
        MatchCase("https://www.mozilla.org/en-US/firefox/", nil),
        MatchCase("https://www.mozilla.org/", nil),
        MatchCase("https://www.mozilla.org", nil),
    ]

    @Test("www.mozilla.org URLs", arguments: mozillaCases)
    func mozillaURL(_ matchCase: MatchCase) {
        expect(Self.mozilla, matchCase, appIDs: Self.mozillaApps)
    }

    // MARK: bsky.app: legacy paths ["*"]

    static let bsky = try? load("bsky.app__apple-app-site-association")

    @Test("bsky.app: one legacy entry, empty legacy apps array, no issues")
    func bskyStructure() throws {
        let file = try #require(Self.bsky)
        #expect(file.details.count == 1)
        #expect(file.details.first?.appIDs == ["B3LX46C5HS.xyz.blueskyweb.app"])
        #expect(file.details.first?.format == .paths)
        #expect(file.details.first?.rules.map(\.excludes) == [false])
        #expect(file.issues.isEmpty, "\(file.issues)")
    }

    static let bskyCases: [MatchCase] = [
        MatchCase("https://bsky.app/", pathRule(0)),
        MatchCase("https://bsky.app", pathRule(0)),
        MatchCase("https://bsky.app/profile/bsky.app", pathRule(0)),
        MatchCase("https://bsky.app/profile/bsky.app/post/3l6oveex3ii2l?ref=x#reply", pathRule(0)),
        MatchCase("https://bsky.app/search?q=%23swift", pathRule(0)),
        MatchCase("https://bsky.app/%E2%9C%93/caf%C3%A9", pathRule(0)),
    ]

    @Test("bsky.app: every URL opens in the app", arguments: bskyCases)
    func bskyURL(_ matchCase: MatchCase) {
        expect(Self.bsky, matchCase, appIDs: ["B3LX46C5HS.xyz.blueskyweb.app"])
    }

    @Test("bsky.app's assetlinks.json served at the AASA path is diagnosed as the Android file")
    func assetLinks() throws {
        let error = parseError(try Fixtures.bytes("conformance/aasa/bsky.app__assetlinks.json"))
        #expect(error?.kind == .notAnObject)
        #expect(error?.reason.contains("an array") == true)
        #expect(error?.reason.contains("assetlinks.json") == true)
    }
}
