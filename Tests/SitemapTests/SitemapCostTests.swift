import FixtureServer
import Markup
import TestSupport
import Testing

/// What a sitemap costs grows with its bytes, whatever shape they take.
@Suite("Sitemap cost")
struct SitemapCostTests {
    /// `count` empty elements, each in a namespace of its own (`urn:00000`, `urn:00001`, …) or, for the twin,
    /// in one of two namespaces of the same length taken in turns; then one page entry.
    static func namespaced(_ count: Int, distinct: Bool) -> String {
        let elements = (0..<count).map { index in
            let number = String(distinct ? index : index % 2)
            return "<x xmlns=\"urn:\(String(repeating: "0", count: 5 - number.count))\(number)\"/>"
        }
        return SitemapFixture.urlset(elements.joined() + "<url><loc>https://example.com/last</loc></url>")
    }

    @Test("20,000 elements in 20,000 namespaces cost what they cost in two")
    func manyNamespaces() {
        let text = Self.namespaced(20_000, distinct: true)
        let twin = Self.namespaced(20_000, distinct: false)
        #expect(text.utf8.count == twin.utf8.count)
        #expect(SitemapFixture.read(text).pageURLs == ["https://example.com/last"])
        let timing = TwinTiming.measure(within: 20) {
            _ = SitemapFixture.read(text)
        } twin: {
            _ = SitemapFixture.read(twin)
        }
        #expect(timing.isWithin(20), "\(timing)")
    }
}
