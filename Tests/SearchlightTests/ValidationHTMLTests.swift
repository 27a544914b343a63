import FixtureServer
import Foundation
import Items
import Testing

@testable import searchlight

@Suite("validate --html and unsafe URLs")
struct ValidationHTMLTests {
    static func card(thumbnail: String) -> PreviewCard {
        var item = SearchableItem(
            uniqueIdentifier: "https://example.com/p", webpageURL: "https://example.com/p", sources: [.web])
        item.attributeSet.title = "Tart"
        item.attributeSet.thumbnailURL = thumbnail
        return PreviewCard(item: item)
    }

    @Test(
        "The card renders a thumbnail only from an http(s) URL, whatever the item holds",
        arguments: [
            "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
            "data:image/svg+xml,<svg onload=alert(1)>", "vbscript:x", "file:///etc/passwd", "//evil.example/x.png",
            "x.png",
        ])
    func unsafeThumbnail(thumbnail: String) {
        let html = ValidationHTML.cardHTML(Self.card(thumbnail: thumbnail), pageURL: "https://example.com/p")
        #expect(!html.contains("background-image"))
        #expect(!html.contains("url("))
    }

    @Test("An https thumbnail is rendered as the card's background")
    func safeThumbnail() {
        let html = ValidationHTML.cardHTML(
            Self.card(thumbnail: "https://cdn.example.com/t.jpg"), pageURL: "https://example.com/p")
        #expect(html.contains("background-image: url('https://cdn.example.com/t.jpg')"))
    }

    @Test("validate reports refused URLs as warnings and keeps them out of the card and the HTML page")
    func validateHostilePage() async throws {
        let server = try await FixtureServer.start(site: "example")
        let page = """
            <html><head><title>Tart</title><meta name="description" content="A tart.">
            <meta property="og:image" content="JaVaScRiPt:alert(1)">
            <meta name="apple-itunes-app" content="app-id=123, app-argument=data:text/html,hi">
            </head><body><p>Tart</p></body></html>
            """
        await server.setBehaviour(.html(page), for: "/hostile")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID()).html")
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try await CommandRunner.run([
            "validate", server.url("/hostile"), "--allow-private-network", "--json", "--html", file.path,
        ])
        await server.stop()
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        let report = try jsonObject(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        let checks = try #require(report["checks"] as? [[String: Any]])
        let warnings = checks.filter { $0["name"] as? String == "url" }
        #expect(warnings.count == 2)
        #expect(warnings.allSatisfy { $0["status"] as? String == "warn" })
        #expect(warnings.contains { ($0["message"] as? String)?.hasPrefix("og:image") == true })
        #expect(warnings.contains { ($0["message"] as? String)?.hasPrefix("app-argument") == true })
        let preview = try #require(report["preview"] as? [String: Any])
        #expect(preview["thumbnailURL"] == nil)
        let html = try String(contentsOf: file, encoding: .utf8)
        #expect(!html.contains("background-image"))
        #expect(html.contains("refused"))
    }
}
