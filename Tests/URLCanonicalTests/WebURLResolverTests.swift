import Testing

@testable import URLCanonical

/// The resolver's byte scan must give exactly what the WHATWG parser gives, whenever it answers.
@Suite struct WebURLResolverTests {
    static let bases = [
        "http://127.0.0.1:8080/", "https://example.com/dir/page.html?q=1#top", "https://example.com/a/b/",
        "http://example.com", "https://user:pw@example.com/x", "https://example.com/a/./b", "http://ex.com/%7Euser/",
        "https://example.com:8443/a/b/c?x#y", "http://xn--bcher-kva.de/a/", "https://[::1]/a/b",
        "https://ex.com/a%2e/b",
    ]

    static let references: [String] = {
        var references = [
            "/", "/p/1.html", "/p/1.html?x=1&y=2", "/p/1.html#frag", "p.html", "sub/p.html", "p.html?x=1#f", "  /trim ",
            "https://other.org/x", "http://other.org/x?y#z", "https://other.org", "//other.org/x", "../up.html",
            "./same.html", "/a/../b", "/a/./b", "/a/.", "/a/..", "..", ".", "?q=1", "#only", "", " ", "mailto:x@y.z",
            "javascript:void(0)", "tel:+123", "a:b/c", "1.html", "/with space", "/per%20cent", "/a|b", "/ünï",
            "HTTP://X.ORG/", "https://u@h.org/", "/x\t/y", "x.html#", "/#", "data:text/html,hi", "a/b:c",
            "https://Example.COM:443/A", "https://example.com:0443/", "https://example.com:/", "http://a.b:65536/",
            "http://1.2.3.4/", "http://a.0x1f/", "http://ab--c.de/", "http://a..b/", "http://a.b./", "http://-a.b-/x",
            "//a_b.c/", "/%2e/x", "/%2E%2e/x", "/a/.%2e", "x/%2e.", "?a='b'", "?a=\"<>`{}", "#a \"<>`{}", "/a`{}^|",
            "/a\\b", "\\\\host/x", "http:relative", "https:other", "/é?é#é", "/\u{1}x", "?\u{7F}",
            "https://a.b/c?d#e f",
            "http://a.b:8080", "http://a.b:80/x", "https://a.b:443?x", "https://a.b#y", "//a.b", "///x", "http:///x",
            "http://127.0.0.1:8080/x", "http://0.0.0.0/", "http://255.255.255.255/", "http://256.1.1.1/",
            "http://01.2.3.4/", "http://1.2.3/", "http://1.2.3.4.5/", "http://1.2.3.4./", "http://0x7f.0.0.1/",
            "http://1234.1.1.1/", "http://1.2.3.04/", "http://00.1.2.3/", "http://1.2.3.4a/", "//10.0.0.1:80/x",
            "https://" + String(repeating: "a", count: 64) + ".com/", "/" + String(repeating: "x/", count: 50),
        ]
        // Generated: every combination of a few path shapes, queries and fragments.
        for path in ["", "a", "a/b", "./a", "../a", "../../..", "a/..", "a/./b/", "/a//b", ".", "..", "%2e%2E/a"] {
            for query in ["", "?", "?x=1", "?x=a'b"] {
                for fragment in ["", "#", "#f", "#f g"] { references.append(path + query + fragment) }
            }
        }
        return references
    }()

    @Test("the byte scan equals the parser", arguments: bases)
    func equivalence(base: String) throws {
        let resolver = try #require(WebURLResolver(base: base))
        let baseURL = try #require(WebURL(base))
        for reference in Self.references {
            let parsed = WebURL(reference, base: baseURL)
            #expect(
                resolver.href(resolving: reference) == parsed?.href,
                "base \(base), reference \(reference.debugDescription)")
            #expect(resolver.webHref(resolving: reference) == resolver.parsedWebHref(resolving: reference))
        }
    }

    @Test("the byte scan takes the ordinary links")
    func coverage() throws {
        let resolver = try #require(WebURLResolver(base: "https://example.com/dir/page.html"))
        let prepared = try #require(resolver.prepared)
        for reference in [
            "/p/1.html", "p.html", "https://example.com/x", "/a?b=c#d", "../x", "//cdn.example.com/a.js", "?page=2",
            "#top", "/é", "https://example.com:8443/x", "http://127.0.0.1:8080/shop/1.html", "//10.0.0.1/a",
        ] {
            #expect(
                WebURLResolver.FastPath.resolve(reference, against: prepared, keepingFragment: true) != nil,
                "\(reference)")
        }
        #expect(resolver.href(resolving: "../x/./y/../z?a'b#c d") == "https://example.com/x/z?a%27b#c%20d")
        #expect(resolver.webHref(resolving: "HTTPS://EXAMPLE.com:443/a#b") == "https://example.com/a")
        #expect(resolver.webHref(resolving: "mailto:a@b.c") == nil)
    }

    @Test("every WHATWG corpus case with an http(s) base resolves as the parser does")
    func corpus() throws {
        var checked = 0
        for testCase in try URLTestCase.all() {
            guard let base = testCase.base, let baseURL = WebURL(base), let resolver = WebURLResolver(base: base),
                resolver.prepared != nil
            else { continue }
            checked += 1
            #expect(
                resolver.href(resolving: testCase.input) == WebURL(testCase.input, base: baseURL)?.href, "\(testCase)")
        }
        #expect(checked > 100)
    }
}

/// `WebURL.isHTTP`: the byte scan's yes agrees with the parser's.
@Suite struct WebURLIsHTTPTests {
    @Test(
        "http and https URLs with a host, as the parser reads them",
        arguments: [
            ("https://example.com/recipes/42?x=1#top", true), ("HTTPS://EXAMPLE.COM", true),
            ("https://example.com/a b", true), ("http://1.2.3.999/", false), ("https://exa mple.com/", false),
            ("ftp://example.com/", false), ("mailto:a@b.c", false), ("/relative", false), ("https://", false),
            ("https://[::1]:8443/x", true), ("http://bücher.de/", true), ("  https://example.com/  ", true),
        ])
    func verdicts(text: String, expected: Bool) {
        #expect(WebURL.isHTTP(text) == expected)
    }

    /// URLs built from schemes, hosts, ports and tails with every printable ASCII byte.
    static var candidates: [String] {
        let schemes = ["http://", "https://", "HTTPS://", "hTTp://", "ftp://", "http:/", "https:", "http//"]
        let hosts = [
            "example.com", "a", "x-1.example", "", "ex ample.com", "exa%41mple", "[::1]", "user@host", "...",
            "127.0.0.1", "1.2.3.256", "010.0.0.1", "1.2.3", "0.0.0.0", "1.2.3.4.5", "1.2.3.4.", "1.2.3.0x4",
        ]
        let ports = ["", ":8080", ":", ":65535", ":65536", ":99999", ":x"]
        var tails = ["", "/", "/a/b?c=d&e=f#g", "?q", "#f", "/%41%2f", "/%4", "/%zz", "/a#b#c", "/ü", "/a b"]
        for byte in UInt8(0x20)...UInt8(0x7E) { tails.append("/p" + String(UnicodeScalar(byte)) + "q") }
        var result: [String] = []
        for scheme in schemes {
            for host in hosts {
                for port in ports { for tail in tails { result.append(scheme + host + port + tail) } }
            }
        }
        return result
    }

    @Test("the byte scan never says yes where the parser says no")
    func agreement() throws {
        let inputs = try URLTestCase.all().map(\.input) + Self.candidates
        var accepted = 0
        for input in inputs {
            let parsed = WebURL(input)
            let parserSays = parsed.map { ($0.scheme == "http" || $0.scheme == "https") && $0.host?.isEmpty == false }
            #expect(WebURL.isHTTP(input) == (parserSays ?? false), "\(input.debugDescription)")
            if parserSays == true { accepted += 1 }
        }
        #expect(accepted > 1000)
    }
}
