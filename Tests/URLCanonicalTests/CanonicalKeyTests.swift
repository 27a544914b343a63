import Testing
import URLCanonical

@Suite("Canonical URL key (SPEC §4)")
struct CanonicalKeyTests {
    static let table: [(input: String, key: String)] = [
        // Scheme, host, port.
        ("HTTPS://WWW.Example.COM/Path", "https://www.example.com/Path"),
        ("http://example.com:80/", "http://example.com/"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("http://www.example.com/", "http://www.example.com/"),
        // IDN.
        ("https://Bücher.example/", "https://xn--bcher-kva.example/"),
        ("https://例え.テスト/", "https://xn--r8jz45g.xn--zckzah/"),
        // Dot segments, including encoded dots.
        ("http://h/a/./b/../c", "http://h/a/c"),
        ("http://h/a/%2e%2E/b", "http://h/b"),
        ("http://h/../../x", "http://h/x"),
        // Percent-encoding: unreserved decoded, hex upper-cased, reserved kept encoded.
        ("http://h/%7Euser/%41%62c", "http://h/~user/Abc"),
        ("http://h/a%2fb%3a", "http://h/a%2Fb%3A"),
        ("http://h/caf%c3%a9", "http://h/caf%C3%A9"),
        ("http://h/café", "http://h/caf%C3%A9"),
        ("http://h/?q=%7e%2d%2b", "http://h/?q=~-%2B"),
        ("http://h/100%", "http://h/100%"),
        // Fragment and empty query.
        ("http://h/p#section", "http://h/p"),
        ("http://h/p?", "http://h/p"),
        ("http://h/p?#x", "http://h/p"),
        ("http://h/p?&&", "http://h/p"),
        // Tracking parameters.
        ("http://h/?utm_source=x&utm_medium=y", "http://h/"),
        ("http://h/?id=1&utm_campaign=z&gclid=a&fbclid=b&mc_cid=c&mc_eid=d", "http://h/?id=1"),
        ("http://h/?UTM_Source=x&id=2", "http://h/?id=2"),
        ("http://h/?utm=keep&gclidx=keep", "http://h/?gclidx=keep&utm=keep"),
        // Sorting: by name, stable for repeated names.
        ("http://h/?b=2&a=1", "http://h/?a=1&b=2"),
        ("http://h/?b=2&a=3&a=1&c", "http://h/?a=3&a=1&b=2&c"),
        ("http://h/?a=1&&b=2", "http://h/?a=1&b=2"),
        ("http://h/?Z=1&a=1", "http://h/?Z=1&a=1"),
        // Empty path.
        ("https://example.com", "https://example.com/"),
        ("https://example.com?b=1", "https://example.com/?b=1"),
    ]

    @Test("table", arguments: table)
    func key(_ input: String, _ expected: String) {
        #expect(canonicalKey(input) == expected)
    }

    @Test("keys are fixed points: the key of a key is itself", arguments: table)
    func idempotent(_ input: String, _ expected: String) {
        #expect(canonicalKey(expected) == expected)
    }

    @Test("relative references resolve against the base first")
    func relative() throws {
        let base = try #require(WebURL("https://example.com/a/b?x=1"))
        #expect(canonicalKey("../c?utm_source=n#top", base: base) == "https://example.com/c")
        #expect(canonicalKey("?b=1&a=2", base: base) == "https://example.com/a/b?a=2&b=1")
    }

    @Test("what does not parse has no key")
    func failures() {
        #expect(canonicalKey("not a url") == nil)
        #expect(canonicalKey("http://") == nil)
        #expect(canonicalKey("http://a b/") == nil)
        #expect(canonicalKey("https://example.com:99999/") == nil)
    }

    @Test("www. is kept apart")
    func www() {
        #expect(canonicalKey("https://www.example.com/") != canonicalKey("https://example.com/"))
    }
}
