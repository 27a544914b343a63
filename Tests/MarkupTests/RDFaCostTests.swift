import FixtureServer
import Markup
import TestSupport
import Testing

/// RDFa prefix declarations cost once each, however many elements lie below them.
@Suite("RDFa prefix cost")
struct RDFaCostTests {
    /// 1,000 elements that each declare a prefix and use it, under one element declaring 16,000 prefixes
    /// (`prefix`), or for the twin holding the same text in another attribute of that length (`data-p`).
    static func page(declaring attribute: String) -> String {
        let many = (0..<16_000).map { "p\($0): http://example.com/\($0)#" }.joined(separator: " ")
        let spans = String(repeating: #"<span prefix="a: http://a.example/" property="a:x">v</span>"#, count: 1_000)
        return "<html><body><div \(attribute)=\"\(many)\">\(spans)</div></body></html>"
    }

    static func extract(_ html: String) -> PageMarkup {
        PageExtractor.extract(utf8: Array(html.utf8), url: "https://example.com/")
    }

    @Test("1,000 small declarations under one of 16,000 prefixes cost what they cost alone")
    func nestedDeclarations() {
        let page = Self.page(declaring: "prefix")
        let twin = Self.page(declaring: "data-p")
        #expect(page.utf8.count == twin.utf8.count)
        let properties = Self.extract(page).rdfa.first?.properties ?? []
        #expect(properties.count == 1_000)
        #expect(properties.allSatisfy { $0.name == "http://a.example/x" })
        let timing = TwinTiming.measure(within: 20) {
            _ = Self.extract(page)
        } twin: {
            _ = Self.extract(twin)
        }
        #expect(timing.isWithin(20), "\(timing)")
    }

    @Test("a prefix declared inside an element is gone after it, and the outer meaning is back")
    func scopes() {
        let html = """
            <html><body prefix="a: http://outer.example/">
            <div prefix="a: http://inner.example/ b: http://b.example/"><span property="a:x b:y">1</span></div>
            <span property="a:x b:y">2</span>
            </body></html>
            """
        let names = Self.extract(html).rdfa.first?.properties.map(\.name)
        #expect(names == ["http://inner.example/x", "http://b.example/y", "http://outer.example/x", "b:y"])
    }
}
