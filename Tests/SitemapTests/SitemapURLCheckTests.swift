import Markup
import Testing

/// Which `<loc>` values a sitemap keeps: absolute http(s) URLs with a host, whatever the scheme's case,
/// and nothing with control characters inside.
@Suite struct SitemapURLCheckTests {
    @Test(
        "a <loc> is kept only when it is an absolute http(s) URL",
        arguments: [
            ("https://example.com/a", true), ("HTTPS://EXAMPLE.COM/a", true), ("hTtP://example.com/", true),
            ("http://127.0.0.1:8080/shop/1.html", true), ("http://[::1]/x", true), ("https://bücher.de/", true),
            ("ftp://example.com/", false), ("httpx://example.com/", false), ("http:/example.com/", false),
            ("https:example.com", false), ("http", false), ("/relative", false), ("https://", false),
            ("http://1.2.3.999/", false), ("https://exa mple.com/", false),
        ])
    func verdict(loc: String, kept: Bool) {
        let sitemap = SitemapFixture.read(SitemapFixture.urlset("<url><loc>\(loc)</loc></url>"))
        #expect(sitemap.pageURLs == (kept ? [loc] : []), "\(loc)")
        #expect(sitemap.issueKinds == (kept ? [] : [.invalidURL]), "\(loc)")
    }

    @Test("a control character inside a <loc> is named as such")
    func controlCharacter() {
        let sitemap = SitemapFixture.read(SitemapFixture.urlset("<url><loc>https://example.com/a&#127;b</loc></url>"))
        #expect(sitemap.pageURLs.isEmpty)
        #expect(sitemap.issues.first?.message.hasPrefix("a URL with control characters") == true)
    }
}
