import Robots
import Testing

/// RFC 9309 §2.2.2 and §2.2.3: rule paths and URL paths compare after the same percent-encoding
/// normalization, in both directions.
@Suite("robots.txt percent-encoding equivalence and misspelled keys")
struct RobotsEncodingTests {
    /// One `allow` rule against a file that otherwise disallows everything.
    struct Case: Sendable, CustomTestStringConvertible {
        let rule: String
        let url: String
        let allowed: Bool
        var testDescription: String { "Allow: \(rule) for \(url) → \(allowed ? "allowed" : "disallowed")" }

        init(_ rule: String, _ url: String, _ allowed: Bool) {
            self.rule = rule
            self.url = url
            self.allowed = allowed
        }
    }

    static func allowedByRule(_ rule: String, _ url: String) -> Bool {
        let robots = RobotsTxt(Array("User-agent: *\nDisallow: /\nAllow: \(rule)\n".utf8))
        return robots.decision(for: url, userAgent: "FooBot").allowed
    }

    @Test(
        "an escaped character in the rule matches it written raw in the URL, and the reverse",
        arguments: [
            Case("/a%3cd.html", "/a<d.html", true),
            Case("/a%3Cd.html", "https://example.com/a<d.html", true),
            Case("/a<d.html", "/a%3Cd.html", true),
            Case("/a<d.html", "https://example.com/a%3cd.html?x", true),
            Case("/a<d.html", "/a<d.html", true),
            Case("/a%20b", "/a b", true),
            Case("/a b", "/a%20b", true),
            Case("/q?x=%7B%7D", "/q?x={}", true),
            Case("/q?x={}", "/q?x=%7b%7d", true),
            Case("/foo/bar/ツ", "/foo/bar/ツ", true),
            Case("/foo/bar/%e3%83%84", "/foo/bar/ツ", true),
            Case("/foo/bar/ツ", "/foo/bar/%e3%83%84", true),
            // Escapes of unreserved characters are decoded (RFC 9309's `/foo/bar/%62%61%7A` example).
            Case("/%7Ejoe/", "/~joe/index.html", true),
            Case("/~joe/", "/%7ejoe/index.html", true),
            Case("/foo/bar/%62%61%7A", "/foo/bar/baz", true),
            // §2.2.3: an escaped `*` or `$` in a rule is that character, not a wildcard or an anchor.
            Case("/path/file-with-a-%2A.html", "/path/file-with-a-*.html", true),
            Case("/path/file-with-a-%2A.html", "/path/file-with-a-x.html", false),
            Case("/path/foo-%24", "/path/foo-$", true),
            Case("/path/foo-%24", "/path/foo-", false),
        ])
    func equivalence(_ testCase: Case) {
        #expect(Self.allowedByRule(testCase.rule, testCase.url) == testCase.allowed)
    }

    @Test(
        "hex digits compare without regard to case",
        arguments: [
            Case("/a%3cd", "/a%3Cd", true), Case("/a%3Cd", "/a%3cd", true), Case("/%e3%83%84", "/%E3%83%84", true),
            Case("/a%2fb", "/a%2Fb", true), Case("/a%2Fb", "/a%2fb", true),
        ])
    func hexCase(_ testCase: Case) {
        #expect(Self.allowedByRule(testCase.rule, testCase.url) == testCase.allowed)
    }

    @Test(
        "an escaped reserved character is not the character itself: %2F is not /",
        arguments: [
            Case("/a%2Fb", "/a/b", false), Case("/a/b", "/a%2Fb", false), Case("/a%2fb", "/a/b", false),
            Case("/a%3Fb", "/a?b", false), Case("/a?b", "/a%3Fb", false), Case("/a%2Fb", "/a%2Fb/c", true),
        ])
    func reservedStayDistinct(_ testCase: Case) {
        #expect(Self.allowedByRule(testCase.rule, testCase.url) == testCase.allowed)
    }

    @Test("* and a final $ keep their meaning next to escapes")
    func wildcards() {
        #expect(Self.allowedByRule("/*%3C", "/x/y<"))
        #expect(Self.allowedByRule("/a<$", "/a%3C"))
        #expect(!Self.allowedByRule("/a<$", "/a%3Cb"))
        #expect(Self.allowedByRule("/a*d.html", "/a<b>d.html"))
    }

    /// The longest match is measured on the normalized rules: `/a<<` is `/a%3C%3C`, 8 octets, and
    /// beats the 7 of `/a*%3Cx`, although it is the shorter as written.
    @Test("the longest match is measured on the normalized form")
    func precedenceOnNormalizedLength() {
        let robots = RobotsTxt(Array("User-agent: *\nDisallow: /a*<x\nAllow: /a<<\n".utf8))
        let decision = robots.decision(for: "/a<<x", userAgent: "FooBot")
        #expect(decision.allowed)
        #expect(decision.rule?.pattern == "/a%3C%3C")
        #expect(robots.groups.first?.rules.map(\.pattern) == ["/a*%3Cx", "/a%3C%3C"])
    }

    @Test(
        "Google's misspellings of disallow are read as disallow",
        arguments: ["dissallow", "dissalow", "disalow", "diasllow", "disallaw", "DISALOW", "Dissallow"])
    func misspelledDisallow(_ key: String) {
        for line in ["\(key): /private", "\(key) /private"] {
            let robots = RobotsTxt(Array("User-agent: *\n\(line)\n".utf8))
            let decision = robots.decision(for: "https://example.com/private/x", userAgent: "FooBot")
            #expect(!decision.allowed, "\(line)")
            #expect(decision.rule?.line == 2, "\(line)")
            #expect(robots.decision(for: "https://example.com/public", userAgent: "FooBot").allowed, "\(line)")
        }
    }

    @Test("a key that is not one of the known misspellings is still ignored")
    func otherKeysIgnored() {
        let robots = RobotsTxt(Array("User-agent: *\ndisallo: /private\ndis-allow: /private\n".utf8))
        #expect(robots.decision(for: "/private/x", userAgent: "FooBot").allowed)
    }
}
