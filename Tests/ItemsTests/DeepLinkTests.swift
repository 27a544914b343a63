import Items
import Testing

@Suite("Mapping: deep links and the App-result gate")
struct DeepLinkTests {
    @Test(
        "Smart App Banner parameters, tolerant of spacing and case",
        arguments: [
            "app-id=123456789, app-argument=https://example.com/recipes/42?a=1,b=2, affiliate-data=at=xyz&ct=c, app-clip-bundle-id=com.example.clip, app-clip-display=card",
            "  APP-ID = 123456789 ,App-Argument=https://example.com/recipes/42?a=1,b=2,affiliate-data = at=xyz&ct=c,app-clip-bundle-id=com.example.clip,app-clip-display=card,",
        ])
    func smartAppBanner(content: String) throws {
        let banner = SmartAppBanner(content: content)
        #expect(banner.appID == "123456789")
        #expect(banner.appArgument == "https://example.com/recipes/42?a=1,b=2")
        #expect(banner.affiliateData == "at=xyz&ct=c")
        #expect(banner.appClipBundleID == "com.example.clip")
        #expect(banner.appClipDisplay == "card")
        let result = extraction(page(head: "<meta name=\"apple-itunes-app\" content=\"\(content)\">"))
        let link = try #require(result.item.deepLinks.first)
        #expect(link.kind == .smartAppBanner)
        #expect(link.appStoreID == "123456789")
        #expect(link.appClipBundleID == "com.example.clip")
    }

    @Test("A banner without app-id is no deep link and fails the check")
    func bannerWithoutID() {
        let result = extraction(
            page(head: "<meta name=\"apple-itunes-app\" content=\"app-argument=https://example.com/page\">"))
        #expect(result.item.deepLinks.isEmpty)
        #expect(result.checks.first { $0.name == "deepLink" }?.status == .fail)
    }

    @Test("An app-argument pointing at the home screen earns a warning")
    func homeScreenArgument() {
        let result = extraction(
            page(head: "<meta name=\"apple-itunes-app\" content=\"app-id=1, app-argument=https://example.com/\">"),
            url: "https://example.com/recipes/42")
        #expect(result.checks.first { $0.name == "deepLink" }?.status == .warn)
    }

    @Test("Twitter app cards per platform")
    func twitter() {
        let html = page(
            head: """
                <meta name="twitter:app:name:iphone" content="Recipes"><meta name="twitter:app:id:iphone" content="111">
                <meta name="twitter:app:url:iphone" content="recipes://42"><meta name="twitter:app:id:ipad" content="222">
                <meta name="twitter:app:id:googleplay" content="com.example.recipes">
                """)
        let links = extraction(html).item.deepLinks
        #expect(links.map(\.platform) == ["iphone", "ipad", "googleplay"])
        #expect(links.map(\.appStoreID) == ["111", "222", "com.example.recipes"])
        #expect(links.first?.appName == "Recipes")
        #expect(links.first?.url == "recipes://42")
        #expect(links.allSatisfy { $0.kind == .twitterCard })
    }

    @Test("App Links for iOS and Android")
    func appLinks() {
        let html = page(
            head: """
                <meta property="al:ios:url" content="recipes://42"><meta property="al:ios:app_store_id" content="111">
                <meta property="al:ios:app_name" content="Recipes"><meta property="al:android:package" content="com.example">
                <meta property="al:android:url" content="recipes://42">
                """)
        let links = extraction(html).item.deepLinks
        #expect(links.map(\.platform) == ["ios", "android"])
        #expect(links.first?.appStoreID == "111")
        #expect(links.last?.appStoreID == "com.example")
        #expect(links.allSatisfy { $0.kind == .appLinks })
    }

    static let complete = """
        <title>Lemon tart</title><meta name="description" content="A tart.">
        <meta name="apple-itunes-app" content="app-id=1, app-argument=https://example.com/page">
        """

    @Test("The App-result gate: deep link, title, description and not noindex")
    func gate() {
        #expect(extraction(page(head: Self.complete)).appResult.isEligible)
        let noindex = extraction(page(head: Self.complete + "<meta name=\"applebot\" content=\"noindex\">"))
        #expect(!noindex.appResult.isEligible)
        #expect(noindex.appResult.missing == ["the page is noindex"])
        let noLink = extraction(page(head: "<title>T</title><meta name=\"description\" content=\"D\">"))
        #expect(noLink.appResult.missing.count == 1)
        #expect(noLink.appResult.missing.first?.hasPrefix("no deep link") == true)
        let android = extraction(
            page(
                head:
                    "<title>T</title><meta name=\"description\" content=\"D\"><meta property=\"al:android:package\" content=\"x\">"
            ))
        #expect(!android.appResult.isEligible)
        let bare = extraction(
            page(
                head:
                    "<meta name=\"apple-itunes-app\" content=\"app-id=1\"><meta name=\"robots\" content=\"nosnippet\">")
        )
        #expect(bare.appResult.missing == ["no title", "no description"])
    }
}
