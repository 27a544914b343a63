import Scope
import Testing

@Suite("Frontier key normalization")
struct CrawlURLTests {
    static let normalizations: [(input: String, expected: String)] = [
        ("HTTP://WWW.Example.COM:80/a/../b/%7euser/%7E?q=1&a=2#frag", "http://www.example.com/b/~user/~?q=1&a=2"),
        ("https://example.com", "https://example.com/"),
        ("https://example.com:443/x", "https://example.com/x"),
        ("http://example.com:8080/x", "http://example.com:8080/x"),
        ("https://example.com:80/x", "https://example.com:80/x"),
        ("https://example.com:/x", "https://example.com/x"),
        ("https://EXAMPLE.com/Path/Case?Q=V", "https://example.com/Path/Case?Q=V"),
        // Escapes: uppercase hex, unreserved decoded, reserved kept escaped.
        ("http://example.com/a%2fb/%c3%a9?x=%3d%41", "http://example.com/a%2Fb/%C3%A9?x=%3DA"),
        ("http://example.com/%7Efoo%2D%5F%2e", "http://example.com/~foo-_."),
        ("http://example.com/100%/x%zz", "http://example.com/100%25/x%25zz"),
        ("http://example.com/a|b{c}^`", "http://example.com/a%7Cb%7Bc%7D%5E%60"),
        ("http://example.com/a+b;c=d!$'()*,@:", "http://example.com/a+b;c=d!$'()*,@:"),
        // Non-ASCII in path and query, international host names.
        ("http://bücher.example/Straße?x=ü", "http://xn--bcher-kva.example/Stra%C3%9Fe?x=%C3%BC"),
        ("http://WWW.XN--BCHER-KVA.example/", "http://www.xn--bcher-kva.example/"),
        // Whitespace the way browsers treat it.
        ("  http://example.com/my file.pdf\n", "http://example.com/my%20file.pdf"),
        ("http://exa\tmple.com/a\nb", "http://example.com/ab"),
        // Empty query and fragment.
        ("http://example.com/?", "http://example.com/"),
        ("http://example.com/#", "http://example.com/"),
        ("http://example.com/?#x", "http://example.com/"),
        // Query order kept.
        ("http://example.com/?b=2&a=1&b=1", "http://example.com/?b=2&a=1&b=1"),
        // Dot segments, also escaped ones; empty segments kept.
        ("http://example.com/a/./b/../../c", "http://example.com/c"),
        ("http://example.com/a/%2e%2E/b", "http://example.com/b"),
        ("http://example.com/a/b/%2e", "http://example.com/a/b/"),
        ("http://example.com/..", "http://example.com/"),
        ("http://example.com/a//b/", "http://example.com/a//b/"),
        // User info dropped; trailing dot removed.
        ("http://user:secret@Example.com./x", "http://example.com/x"),
        // IP literals as the WHATWG parser writes them (IPv4 in any notation as a dotted quad).
        ("http://[0:0::1]:8080/x", "http://[::1]:8080/x"),
        ("http://[2001:DB8::A]/", "http://[2001:db8::a]/"),
        ("http://127.1/", "http://127.0.0.1/"),
        ("http://localhost:3000", "http://localhost:3000/"),
        ("http://0x7f.0.0.1/", "http://127.0.0.1/"),
        ("http://[::ffff:1.2.3.4]/", "http://[::ffff:102:304]/"),
        // Extra or missing slashes before the host are what browsers make of them.
        ("http:///example.com/x", "http://example.com/x"),
        ("http:example.com/x", "http://example.com/x"),
        // Browsers read a backslash as a slash in http(s) URLs, and decode escapes in the host.
        ("http://example.com\\a\\b", "http://example.com/a/b"),
        ("http://ex%61mple.COM/", "http://example.com/"),
        // Browsers send `'` in a query escaped (the WHATWG special-query set); in a path it stays.
        ("http://example.com/it's?q='x'", "http://example.com/it's?q=%27x%27"),
        // International names through URLCanonical's IDNA: fullwidth and ideographic full stops are dots.
        ("http://BÜCHER．example。/", "http://xn--bcher-kva.example/"),
    ]

    @Test("normalizes to the frontier key", arguments: normalizations)
    func normalizes(input: String, expected: String) {
        #expect(CrawlURL.normalize(input) == expected)
    }

    @Test("normalizing a key again changes nothing", arguments: normalizations)
    func idempotent(input: String, expected: String) {
        #expect(CrawlURL.normalize(expected) == expected)
    }

    static let failures: [(input: String, expected: CrawlURL.ParseError)] = [
        ("mailto:someone@example.com", .unsupportedScheme("mailto")),
        ("ftp://example.com/file", .unsupportedScheme("ftp")),
        ("JavaScript:alert(1)", .unsupportedScheme("javascript")),
        ("data:text/html,hi", .unsupportedScheme("data")),
        (String(repeating: "a", count: 70_000), .tooLong(length: 70_000)),
    ]

    @Test("refuses other schemes and oversized input", arguments: failures)
    func refuses(input: String, expected: CrawlURL.ParseError) {
        #expect(throws: expected) { try CrawlURL(input) }
    }

    @Test(
        "refuses what is not an absolute URL with a usable host",
        arguments: [
            "", "   ", "/relative/path", "relative.html", "//example.com/x", "http://",
            "http://a..b/", "http://exa$mple.com/", "http://%ff.example/", "http://ex ample.com/",
            "http://" + String(repeating: "a", count: 64) + ".com/", "http://example.com:99999/",
            // A last label that is a number makes the host an IPv4 address, and this one is not.
            "http://example.123/", "http://1.2.3.4.5/",
        ])
    func invalid(input: String) {
        #expect(CrawlURL.normalize(input) == nil)
        do {
            _ = try CrawlURL(input)
            Issue.record("accepted \(input)")
        } catch {
            guard case .invalid(let reason) = error else {
                Issue.record("\(input): \(error)")
                return
            }
            #expect(!reason.isEmpty)
        }
    }

    @Test("parts, host key and registrable domain")
    func parts() throws {
        let url = try CrawlURL("https://Shop.Example.co.uk:443/a/b?x=1#top")
        #expect(url.scheme == "https")
        #expect(url.host == "shop.example.co.uk")
        #expect(url.port == nil)
        #expect(url.path == "/a/b")
        #expect(url.query == "x=1")
        #expect(url.pathAndQuery == "/a/b?x=1")
        #expect(url.hostKey == "https://shop.example.co.uk")
        #expect(url.registrableDomain == "example.co.uk")
        #expect(url.description == "https://shop.example.co.uk/a/b?x=1")

        let local = try CrawlURL("http://127.0.0.1:8080/")
        #expect(local.port == 8080)
        #expect(local.hostKey == "http://127.0.0.1:8080")
        #expect(local.pathAndQuery == "/")
        #expect(local.registrableDomain == "127.0.0.1")
        #expect(try CrawlURL("http://example.com/a") == CrawlURL("HTTP://EXAMPLE.COM:80/a#b"))
    }
}
