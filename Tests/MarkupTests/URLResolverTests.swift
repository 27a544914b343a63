import Testing

@testable import Markup

/// The string-only fast path for ordinary links gives exactly what Foundation's resolver gives.
@Suite("URL resolution")
struct URLResolverTests {
    static let bases = [
        "http://127.0.0.1:8080/", "https://example.com/dir/page.html?q=1#top", "https://example.com/a/b/",
        "http://example.com", "https://user@example.com/x", "https://example.com/a/./b", "http://ex.com/%7Euser/",
    ]
    static let references = [
        "/", "/p/1.html", "/p/1.html?x=1&y=2", "/p/1.html#frag", "p.html", "sub/p.html", "p.html?x=1#f", "  /trim ",
        "https://other.org/x", "http://other.org/x?y#z", "https://other.org", "//other.org/x", "../up.html",
        "./same.html", "/a/../b", "/a/./b", "/a/.", "/a/..", "..", ".", "?q=1", "#only", "", " ", "mailto:x@y.z",
        "javascript:void(0)", "tel:+123", "a:b/c", "1.html", "/with space", "/per%20cent", "/a|b", "/ünï",
        "HTTP://X.ORG/",
        "https://u@h.org/", "/x\t/y", "x.html#", "/#", "data:text/html,hi", "a/b:c",
    ]

    @Test("fast path equals Foundation's resolution", arguments: bases)
    func equivalence(base: String) {
        let resolver = URLResolver(base: base)
        for reference in Self.references {
            let foundation = try? resolver.foundationWebResolution(of: reference).get()
            if let fast = resolver.fastWebResolution(of: reference) {
                #expect(fast == foundation, "base \(base), reference '\(reference)'")
            }
            #expect((try? resolver.webResolution(of: reference).get()) == foundation)
        }
    }

    @Test("the fast path takes the ordinary links")
    func coverage() {
        let resolver = URLResolver(base: "https://example.com/dir/page.html")
        for reference in ["/p/1.html", "p.html", "https://example.com/x", "/a?b=c#d"] {
            #expect(resolver.fastWebResolution(of: reference) != nil, "\(reference)")
        }
    }
}
