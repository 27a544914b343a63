import Scope
import Testing

@Suite("Include and exclude patterns")
struct URLPatternTests {
    static let table: [(pattern: String, url: String, matches: Bool)] = [
        // Path patterns: anchored at both ends, matched against path and query.
        ("/private/*", "https://example.com/private/x", true),
        ("/private/*", "https://example.com/private/", true),
        ("/private/*", "https://example.com/private", false),
        ("/private/*", "https://example.com/public/private/x", false),
        ("*/private/*", "https://example.com/a/private/b", true),
        ("/", "https://example.com/", true),
        ("/", "https://example.com/a", false),
        ("*?session=*", "https://example.com/a?session=1", true),
        ("*?session=*", "https://example.com/a", false),
        ("*.pdf", "https://example.com/a.pdf", true),
        ("*.pdf", "https://example.com/a.pdf?download=1", false),
        ("/a*b*c", "https://example.com/abc", true),
        ("/a*b*c", "https://example.com/aXbYc", true),
        ("/a*b*c", "https://example.com/acb", false),
        ("/ab*ba", "https://example.com/aba", false),
        ("/*aab*", "https://example.com/aaab", true),
        ("/*abac*", "https://example.com/ababac", true),
        ("/**", "https://example.com/anything", true),
        // Paths are case-sensitive; escapes and non-ASCII in patterns are normalized like URLs.
        ("/Docs/*", "https://example.com/docs/x", false),
        ("/%7euser/*", "https://example.com/~user/a", true),
        ("/caf%c3%a9/*", "https://example.com/café/menu", true),
        ("/café/*", "https://example.com/caf%C3%A9/menu", true),
        ("/my file*", "https://example.com/my%20file.pdf", true),
        // "://" inside a path pattern does not make it a URL pattern.
        ("/go?to=http://*", "https://example.com/go?to=http://other.example/", true),
        // Whole-URL patterns: scheme and host case-insensitive, default port and root path implied.
        ("https://*.example.com/*", "https://www.example.com/x", true),
        ("https://*.example.com/*", "https://example.com/x", false),
        ("https://*.example.com/*", "http://www.example.com/x", false),
        ("*://example.com/*", "http://example.com/x", true),
        ("HTTPS://WWW.EXAMPLE.COM/A*", "https://www.example.com/A1", true),
        ("HTTPS://WWW.EXAMPLE.COM/A*", "https://www.example.com/a1", false),
        ("https://example.com", "https://example.com/", true),
        ("https://example.com", "https://example.com/x", false),
        ("https://example.com:443/*", "https://example.com/a", true),
        ("http://example.com:8080/*", "http://example.com:8080/a", true),
        ("http://example.com:8080/*", "http://example.com/a", false),
        ("https://example.com/*?print=1", "https://example.com/a?print=1", true),
        ("https://example.com*", "https://example.com.evil.test/", true),
    ]

    @Test("glob matching", arguments: table)
    func matching(pattern: String, url: String, matches: Bool) throws {
        let compiled = try URLPattern(pattern)
        #expect(compiled.matches(try CrawlURL(url)) == matches)
    }

    @Test("targets and normalized form")
    func normalizedForm() throws {
        let path = try URLPattern("/caf%c3%a9/*")
        #expect(path.target == .pathAndQuery)
        #expect(path.normalized == "/caf%C3%A9/*")
        #expect(path.description == "/caf%c3%a9/*")
        let url = try URLPattern("HTTPS://Example.COM:443/Docs/*")
        #expect(url.target == .url)
        #expect(url.normalized == "https://example.com/Docs/*")
    }

    static let invalid: [(pattern: String, problem: URLPattern.Problem)] = [
        ("", .empty),
        (String(repeating: "x", count: 1025), .tooLong(length: 1025)),
        ("private/*", .notAPath),
        ("example.com/*", .notAPath),
    ]

    @Test("invalid patterns are refused with the reason", arguments: invalid)
    func refused(pattern: String, problem: URLPattern.Problem) {
        #expect(throws: ScopeError.invalidPattern(pattern, problem: problem)) { try URLPattern(pattern) }
    }

    @Test("the longest allowed pattern is accepted")
    func longestPattern() throws {
        let pattern = "/" + String(repeating: "a", count: URLPattern.maximumLength - 1)
        #expect(try URLPattern(pattern).normalized == pattern)
    }

    @Test("a hostile *a*a*a… pattern against a long URL finishes quickly")
    func hostilePattern() throws {
        // 500 stars: a backtracking matcher would explore ~C(60000, 500) ways to place them, and never finish.
        // The bound tells finishing from not finishing, as the other robustness tests' do; how fast a match
        // is belongs to the benchmarks, not to a test sharing two cores with hundreds of others.
        let pattern = try URLPattern("/" + String(repeating: "*a", count: 500) + "*b")
        let miss = try CrawlURL("https://example.com/" + String(repeating: "a", count: 60_000))
        let hit = try CrawlURL("https://example.com/" + String(repeating: "a", count: 60_000) + "b")
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(!pattern.matches(miss))
            #expect(pattern.matches(hit))
        }
        #expect(elapsed < .seconds(30))
    }
}
