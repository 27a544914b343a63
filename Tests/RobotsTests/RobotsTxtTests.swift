import Robots
import Testing

@Suite("robots.txt groups, fallback and records")
struct RobotsTxtTests {
    static let file = """
        \u{FEFF}User-agent: Googlebot\r
        Disallow: /private/\r
        Crawl-delay: 2\r
        \r
        User-agent: *\r
        Disallow: /\r
        Sitemap: https://example.com/sitemap.xml
        """

    @Test("Applebot falls back to the Googlebot group before *; other agents follow RFC 9309 strictly")
    func applebotFallback() {
        let robots = RobotsTxt(Array(Self.file.utf8))
        let apple = robots.decision(for: "https://example.com/page", userAgent: "Applebot/0.1")
        #expect(apple.allowed)
        #expect(apple.group == "googlebot")
        #expect(!robots.decision(for: "https://example.com/private/x", userAgent: "Applebot").allowed)
        let other = robots.decision(for: "https://example.com/page", userAgent: "OtherBot")
        #expect(!other.allowed)
        #expect(other.group == "*")
        #expect(other.rule?.line == 6)
        #expect(robots.decision(for: "https://example.com/robots.txt", userAgent: "OtherBot").allowed)
        #expect(robots.sitemaps == ["https://example.com/sitemap.xml"])
        #expect(robots.crawlDelay(userAgent: "Applebot") == 2)
    }

    @Test("Longest match wins, allow wins ties, * and $ work")
    func matching() {
        let robots = RobotsTxt(
            Array("User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\nAllow: /c\nDisallow: /c".utf8))
        #expect(!robots.decision(for: "/a/x").allowed)
        #expect(robots.decision(for: "/a/b/c").allowed)
        #expect(!robots.decision(for: "/docs/x.pdf").allowed)
        #expect(robots.decision(for: "/docs/x.pdf?download").allowed)
        #expect(robots.decision(for: "/c").allowed)
    }
}
