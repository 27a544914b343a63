import FixtureServer
import Foundation
import Items
import Markup
import Testing

@Suite("Broken, hostile and non-UTF-8 pages", .timeLimit(.minutes(2)))
struct HostilePageTests {
    static func fixture(
        _ name: String, url: String = "https://example.com/page", headers: [(name: String, value: String)] = []
    ) throws -> PageExtraction {
        PageExtraction(bytes: try Fixtures.bytes("pages/hostile/\(name)"), url: url, headers: headers)
    }

    @Test("Unclosed tags everywhere still give title, description and links")
    func unclosed() throws {
        let result = try Self.fixture("unclosed.html")
        #expect(result.item.attributeSet.title?.hasPrefix("Unclosed") == true)
        #expect(result.page.links.map(\.url) == ["https://example.com/a", "https://example.com/b"])
        #expect(result.page.text.contains("cell 2"))
    }

    @Test("Meta, link and JSON-LD inside <body> count")
    func markupInBody() throws {
        let result = try Self.fixture("body-markup.html")
        #expect(result.item.attributeSet.title == "Title from body meta")
        #expect(result.page.linkTargets(rel: "canonical") == ["https://example.com/canonical-from-body"])
        #expect(result.item.attributeSet.phoneNumbers == ["+1 555 0100"])
    }

    @Test("Duplicate and conflicting tags: the first wins, every value is kept in the raw markup")
    func conflicting() throws {
        let result = try Self.fixture("conflicting.html")
        #expect(result.page.title == "First title")
        #expect(result.item.attributeSet.title == "OG one")
        #expect(result.page.metaContents(property: "og:title") == ["OG one", "OG two"])
        #expect(result.item.attributeSet.contentDescription == "Desc one")
        #expect(result.page.linkTargets(rel: "canonical").first == "https://example.com/one")
        #expect(result.item.deepLinks.first?.appStoreID == "111")
        #expect(result.page.baseURL == "https://first.example/")
        #expect(result.page.links.first?.url == "https://first.example/x")
    }

    @Test(
        "Non-UTF-8 pages are decoded before parsing",
        arguments: [
            ("windows-1252.html", [(String, String)](), "Café €5 — crème brûlée", "windows-1252"),
            ("shift-jis.html", [], "レモンタルト", "Shift_JIS"),
            ("undeclared-latin1.html", [], "No charset: été", "windows-1252"),
            (
                "windows-1252.html", [("Content-Type", "text/html; charset=ISO-8859-1")], "Café €5 — crème brûlée",
                "windows-1252"
            ),
        ])
    func charsets(file: String, headers: [(String, String)], title: String, encoding: String) throws {
        let result = try Self.fixture(file, headers: headers.map { (name: $0.0, value: $0.1) })
        #expect(result.page.title == title)
        #expect(result.decoding?.encoding.name == encoding)
    }

    @Test("Undeclared non-ASCII UTF-8 is detected; undeclared Latin-1 falls back to windows-1252")
    func undeclaredUTF8() {
        let utf8 = PageExtraction(bytes: Array("<title>Crème brûlée</title>".utf8), url: "https://example.com/")
        #expect(utf8.page.title == "Crème brûlée")
        #expect(utf8.decoding?.source == .utf8Detection)
        let ascii = PageExtraction(bytes: Array("<title>Plain</title>".utf8), url: "https://example.com/")
        #expect(ascii.decoding?.source == .defaultEncoding)
    }

    @Test("A broken JSON-LD block is reported with its line; its siblings survive")
    func brokenJSONLD() throws {
        let result = try Self.fixture("broken-jsonld.html")
        #expect(result.page.jsonLD.count == 2)
        let error = try #require(result.page.issues.first { $0.kind == "jsonld" })
        #expect(error.line == 6)
        #expect(result.checks.first { $0.name == "structuredData" }?.status == .warn)
    }

    @Test("Binary garbage, empty input and 50,000-deep nesting neither crash nor hang")
    func garbage() throws {
        let binary = try Self.fixture("binary.html")
        #expect(binary.item.uniqueIdentifier == "https://example.com/page")
        let empty = PageExtraction(bytes: [], url: "https://example.com/")
        #expect(empty.item.attributeSet.title == nil)
        #expect(empty.page.issues.contains { $0.kind == "html" })
        let deep = String(repeating: "<div>", count: 50_000) + "deep text" + String(repeating: "</div>", count: 50_000)
        _ = PageExtraction(bytes: Array(("<title>Deep</title>" + deep).utf8), url: "https://example.com/")
    }

    @Test("A 5 MB page is extracted, with bounded text")
    func largePage() {
        var html = "<html><head><title>Big</title><meta name=\"description\" content=\"Big page\"></head><body>"
        let paragraph = "<p>Lorem ipsum dolor sit amet, <a href=\"/link\">consectetur</a> adipiscing elit.</p>\n"
        while html.utf8.count < 5 * 1024 * 1024 { html += paragraph }
        html += "</body></html>"
        // No timing here (speed lives in Benchmarks/); the suite's time limit catches a hang.
        let result = PageExtraction(bytes: Array(html.utf8), url: "https://example.com/big")
        #expect(result.item.attributeSet.title == "Big")
        // Its 60,000 links are more than a page may have: the first ones are kept, the rest counted.
        #expect(result.page.links.count == PageExtractor.maxLinks)
        #expect(result.page.issues.contains { $0.kind == "links" && $0.message.contains("read the first 10000") })
        #expect(result.page.text.count <= PageExtractor.maxTextLength)
    }
}
