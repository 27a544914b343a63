import Testing

@testable import Markup

/// Link resolution as browsers do it (the WHATWG URL Standard; the byte scan behind it is held equal
/// to the full parser in URLCanonicalTests), with the page's own limits.
@Suite("URL resolution")
struct URLResolverTests {
    @Test(
        "references resolve as a browser resolves them",
        arguments: [
            ("https://example.com/dir/page.html?q=1#top", "../up.html", "https://example.com/up.html"),
            ("https://example.com/dir/page.html", "  sub/p.html?x=1#f ", "https://example.com/dir/sub/p.html?x=1#f"),
            ("https://example.com/a/b/", "//cdn.example.org/x.js", "https://cdn.example.org/x.js"),
            ("http://example.com", "/with space", "http://example.com/with%20space"),
            ("http://example.com/", "/ünï", "http://example.com/%C3%BCn%C3%AF"),
            ("http://example.com/", "HTTP://BÜCHER.de", "http://xn--bcher-kva.de/"),
            ("http://example.com/", "mailto:a@b.c", "mailto:a@b.c"),
            ("not a base", "https://example.com/x#y", "https://example.com/x#y"),
        ])
    func resolution(base: String, reference: String, expected: String) {
        #expect(URLResolver(base: base).resolve(reference) == expected)
    }

    @Test(
        "links a crawler follows are http(s) with a host, without their fragment",
        arguments: [
            ("https://example.com/a/", "p.html#frag", "https://example.com/a/p.html"),
            ("https://example.com/a/", "javascript:void(0)", nil),
            ("https://example.com/a/", "tel:+123", nil),
            ("https://example.com/a/", "file:///etc/passwd", nil),
            ("https://example.com/a/", "http://", nil),
            ("not a base", "/relative", nil),
            ("not a base", "https://example.com/x#y", "https://example.com/x"),
        ] as [(String, String, String?)])
    func webResolution(base: String, reference: String, expected: String?) {
        #expect(URLResolver(base: base).resolveWeb(reference) == expected)
    }

    @Test("a result longer than the page's URL limit is refused, a long fragment is not held against a link")
    func length() {
        let resolver = URLResolver(base: "https://example.com/")
        let long = "/" + String(repeating: "x", count: PageExtractor.maxURLLength)
        #expect(throws: URLResolver.Failure.self) { try resolver.webResolution(of: long).get() }
        let fragment = "/p#" + String(repeating: "f", count: PageExtractor.maxURLLength)
        #expect(resolver.resolveWeb(fragment) == "https://example.com/p")
        #expect(resolver.resolve(fragment) == nil)
    }
}
