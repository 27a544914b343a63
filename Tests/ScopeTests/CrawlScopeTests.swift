import Scope
import Testing

@Suite("Crawl scope decisions")
struct CrawlScopeTests {
    static let sitesScope = Result { () throws(ScopeError) in
        try CrawlScope(
            seeds: [
                "https://www.example.co.uk/", "http://127.0.0.1:8080/", "http://localhost/",
                "https://alice.github.io/", "https://github.io/", "http://[::1]:9000/",
            ])
    }

    static let siteDecisions: [(url: String, expected: ScopeRejection?)] = [
        ("https://shop.example.co.uk/x", nil),
        ("http://example.co.uk/", nil),
        ("HTTPS://WWW.EXAMPLE.CO.UK:443/a#b", nil),
        ("https://example.com/", .otherSite(host: "example.com")),
        ("https://evil.co.uk/", .otherSite(host: "evil.co.uk")),
        ("https://example.co.uk.evil.test/", .otherSite(host: "example.co.uk.evil.test")),
        // IP and single-label seeds admit exactly their host, on any port.
        ("http://127.0.0.1:9999/x", nil),
        ("https://127.0.0.1/", nil),
        ("http://127.0.0.2/", .otherSite(host: "127.0.0.2")),
        ("http://localhost:3000/", nil),
        ("http://[::1]/", nil),
        ("http://intranet/", .otherSite(host: "intranet")),
        // Public-suffix hosts: each subdomain is its own site.
        ("https://alice.github.io/post", nil),
        ("https://bob.github.io/", .otherSite(host: "bob.github.io")),
        ("https://github.io/x", nil),
        // Schemes, invalid URLs, length.
        ("ftp://www.example.co.uk/", .unsupportedScheme("ftp")),
        ("mailto:someone@example.co.uk", .unsupportedScheme("mailto")),
        ("https://www.example.co.uk/" + String(repeating: "a", count: 2048), .tooLong(length: 2074)),
    ]

    @Test("the site rule follows the seeds' registrable domains", arguments: siteDecisions)
    func siteRule(url: String, expected: ScopeRejection?) throws {
        let scope = try Self.sitesScope.get()
        #expect(scope.decision(for: url).rejection == expected)
        #expect(scope.decision(for: url).isAllowed == (expected == nil))
    }

    @Test("the sites a scope admits")
    func sites() throws {
        let scope = try Self.sitesScope.get()
        #expect(scope.sites == ["example.co.uk", "127.0.0.1", "localhost", "alice.github.io", "github.io", "[::1]"])
    }

    @Test("an allowed decision carries the normalized URL")
    func allowedURL() throws {
        let scope = try Self.sitesScope.get()
        let decision = scope.decision(for: "HTTPS://Shop.Example.co.uk:443/a/../b?x=%7e#frag")
        #expect(decision.url?.string == "https://shop.example.co.uk/b?x=~")
        #expect(decision.rejection == nil)
    }

    @Test("invalid URLs are rejected with a reason", arguments: ["/relative", "http://", "http://a..b/", "not a url"])
    func invalidURL(url: String) throws {
        let rejection = try #require(try Self.sitesScope.get().decision(for: url).rejection)
        guard case .invalidURL(let reason) = rejection else {
            Issue.record("\(url): \(rejection)")
            return
        }
        #expect(!reason.isEmpty)
    }

    static let patternDecisions: [(url: String, expected: ScopeRejection?)] = [
        ("https://example.com/docs/a", nil),
        ("https://example.com/blog/2024/post", nil),
        ("https://example.com/about", .notIncluded),
        ("https://example.com/docs/private/x", .excluded(pattern: "/docs/private/*")),
        ("https://example.com/blog/x?print=1", .excluded(pattern: "*?print=*")),
        ("https://www.example.com/docs/a", .excluded(pattern: "https://www.example.com/*")),
        ("https://other.example/docs/a", .otherSite(host: "other.example")),
    ]

    @Test("exclude wins over include; include is required in addition to the site", arguments: patternDecisions)
    func patterns(url: String, expected: ScopeRejection?) throws {
        let scope = try CrawlScope(
            seeds: ["https://example.com/"],
            include: ["/docs/*", "/blog/*"],
            exclude: ["/docs/private/*", "*?print=*", "https://www.example.com/*"])
        #expect(scope.decision(for: url).rejection == expected)
    }

    @Test("the length limit applies to the URL as found and once normalized")
    func lengthLimit() throws {
        let scope = try CrawlScope(seeds: ["http://example.com/"], maxURLLength: 40)
        #expect(scope.decision(for: "http://example.com/" + String(repeating: "a", count: 21)).isAllowed)
        #expect(
            scope.decision(for: "http://example.com/" + String(repeating: "a", count: 22))
                == .rejected(.tooLong(length: 41)))
        // 10 × "é" is 20 bytes as found, 60 once escaped.
        #expect(
            scope.decision(for: "http://example.com/" + String(repeating: "é", count: 10))
                == .rejected(.tooLong(length: 79)))
        // Unreserved escapes shrink: 39 bytes as found, 21 once normalized.
        #expect(scope.decision(for: "http://example.com/" + String(repeating: "%41", count: 6) + "xx").isAllowed)
    }

    struct Options: Sendable, CustomTestStringConvertible {
        var seeds = ["https://example.com/"]
        var include: [String] = []
        var exclude: [String] = []
        var maxURLLength = 2048
        var expected: ScopeError
        var testDescription: String { "\(expected)" }
    }

    static let badOptions: [Options] = [
        Options(seeds: [], expected: .noSeeds),
        Options(seeds: ["example.com"], expected: .invalidSeed("example.com", reason: .invalid(reason: ""))),
        Options(
            seeds: ["ftp://example.com/"],
            expected: .invalidSeed("ftp://example.com/", reason: .unsupportedScheme("ftp"))),
        Options(include: [""], expected: .invalidPattern("", problem: .empty)),
        Options(exclude: ["private/*"], expected: .invalidPattern("private/*", problem: .notAPath)),
        Options(maxURLLength: 10, expected: .invalidMaximumURLLength(10)),
        Options(maxURLLength: 100_000, expected: .invalidMaximumURLLength(100_000)),
    ]

    @Test("invalid options name the offending value", arguments: badOptions)
    func invalidOptions(_ options: Options) {
        do {
            _ = try CrawlScope(
                seeds: options.seeds, include: options.include, exclude: options.exclude,
                maxURLLength: options.maxURLLength)
            Issue.record("accepted")
        } catch {
            switch (error, options.expected) {
            case (.invalidSeed(let seed, .invalid(let reason)), .invalidSeed(let expectedSeed, .invalid)):
                // libcurl's wording is its own; that there is one is what matters.
                #expect(seed == expectedSeed)
                #expect(!reason.isEmpty)
            default:
                #expect(error == options.expected)
            }
            #expect(!error.description.isEmpty)
        }
    }

    @Test("rejections have stable machine keys and short descriptions")
    func keys() {
        let rejections: [ScopeRejection] = [
            .unsupportedScheme("ftp"), .tooLong(length: 3000), .invalidURL(reason: "Bad scheme"),
            .otherSite(host: "example.com"), .excluded(pattern: "/private/*"), .notIncluded,
        ]
        #expect(
            rejections.map(\.key) == [
                "scope.unsupported-scheme", "scope.too-long", "scope.invalid-url", "scope.other-site",
                "scope.excluded", "scope.not-included",
            ])
        #expect(
            rejections.map(\.description) == [
                "unsupported scheme 'ftp' (only http and https are crawled)", "URL too long (3000 bytes)",
                "invalid URL: Bad scheme", "other site: example.com", "excluded by '/private/*'",
                "matches no include pattern",
            ])
    }
}
