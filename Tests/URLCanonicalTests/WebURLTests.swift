import Testing
import URLCanonical

@Suite("WebURL parsing")
struct WebURLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let input: String
        let base: String?
        let href: String?
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        Case(input: " \t HTTP://Example.COM:80/a/./b/../c\n ", base: nil, href: "http://example.com/a/c"),
        Case(input: "https://example.com:443", base: nil, href: "https://example.com/"),
        Case(input: "https://example.com:0443/", base: nil, href: "https://example.com/"),
        Case(input: "https://example.com:8443/", base: nil, href: "https://example.com:8443/"),
        Case(input: "https://example.com:65536/", base: nil, href: nil),
        Case(input: "http:\\\\example.com\\a\\b", base: nil, href: "http://example.com/a/b"),
        Case(input: "http://example.com/a/%2e%2E/b/%2e", base: nil, href: "http://example.com/b/"),
        Case(input: "http://0x7f.1/", base: nil, href: "http://127.0.0.1/"),
        Case(input: "http://0177.0.0.1/", base: nil, href: "http://127.0.0.1/"),
        Case(input: "http://4294967296/", base: nil, href: nil),
        Case(input: "http://[0:0:0:0:0:0:0:1]/", base: nil, href: "http://[::1]/"),
        Case(input: "http://[1:0:0:2::3:0]/", base: nil, href: "http://[1::2:0:0:3:0]/"),
        Case(input: "http://[::ffff:192.168.0.1]/", base: nil, href: "http://[::ffff:c0a8:1]/"),
        Case(input: "http://[1::2::3]/", base: nil, href: nil),
        Case(input: "http://bücher.example/", base: nil, href: "http://xn--bcher-kva.example/"),
        Case(input: "http://EXAMPLE.com%2Fx/", base: nil, href: nil),
        Case(input: "http://exa mple.com/", base: nil, href: nil),
        Case(input: "http://a<b/", base: nil, href: nil),
        Case(input: "http://u:p@h/p q?a b#c d", base: nil, href: "http://u:p@h/p%20q?a%20b#c%20d"),
        Case(input: "http://h/?'", base: nil, href: "http://h/?%27"),
        Case(input: "x://h/?'", base: nil, href: "x://h/?'"),
        Case(input: "../d?q", base: "http://h/a/b/c", href: "http://h/a/d?q"),
        Case(input: "//other/x", base: "https://h/a", href: "https://other/x"),
        Case(input: "#f", base: "mailto:a@b", href: "mailto:a@b#f"),
        Case(input: "x", base: "mailto:a@b", href: nil),
        Case(input: "relative", base: nil, href: nil),
        Case(input: "file:///C|/x/../..", base: nil, href: "file:///C:/"),
        Case(input: "file://localhost/etc", base: nil, href: "file:///etc"),
    ]

    @Test("href", arguments: cases)
    func href(_ testCase: Case) {
        let base = testCase.base.flatMap { WebURL($0) }
        #expect(WebURL(testCase.input, base: base)?.href == testCase.href)
    }

    @Test("components")
    func components() throws {
        let url = try #require(WebURL("https://user:pa%3Ass@Example.com:8080/p/a?q=1#frag"))
        #expect(url.scheme == "https")
        #expect(url.username == "user")
        #expect(url.password == "pa%3Ass")
        #expect(url.host == "example.com")
        #expect(url.port == 8080)
        #expect(url.path == "/p/a")
        #expect(url.query == "q=1")
        #expect(url.fragment == "frag")
        #expect(url.isSpecial)
    }

    @Test("no host and empty query are told apart")
    func absentParts() throws {
        let url = try #require(WebURL("mailto:someone@example.com?"))
        #expect(url.host == nil)
        #expect(url.query == "")
        #expect(url.fragment == nil)
        #expect(url.path == "someone@example.com")
    }

    @Test("hostile input is bounded, not crashed on")
    func hostile() {
        #expect(WebURL("http://" + String(repeating: "a", count: 5000) + "é/") == nil)
        let deep = WebURL(String(repeating: "a/../", count: 20_000) + "z", base: WebURL("http://h/"))
        #expect(deep?.href == "http://h/z")
        #expect(WebURL(String(repeating: "/", count: 100_000), base: WebURL("http://h/")) == nil)  // empty host
        #expect(WebURL("http://[" + String(repeating: ":", count: 1000) + "]/") == nil)
        let padding = String(repeating: " ", count: 500_000)
        #expect(WebURL(padding + "http://h/" + padding)?.href == "http://h/")
        #expect(WebURL("http://h/" + String(repeating: "x", count: 1 << 20)) == nil)  // over the input bound
    }
}
