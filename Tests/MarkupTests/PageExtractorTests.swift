import FixtureServer
import Markup
import Testing

@Suite("Page extraction")
struct PageExtractorTests {
    static func extract(_ fixture: String, url: String, headers: [String] = []) throws -> PageMarkup {
        PageExtractor.extract(utf8: try Fixtures.bytes(fixture), url: url, robotsHeaders: headers)
    }

    @Test("Title, meta, links and scripts are collected in one parse; URLs resolve against <base>")
    func basics() throws {
        let page = try Self.extract("pages/markup/recipe.html", url: "https://example.com/recipes/lemon-tart")
        #expect(page.title == "Lemon tart — Example Recipes")
        #expect(page.baseURL == "https://cdn.example.com/site/")
        #expect(page.metaContents(name: "description") == ["A sharp lemon tart with a crisp shell."])
        #expect(page.metaContents(property: "og:image") == ["img/tart.jpg", "img/tart-2.jpg"])
        #expect(page.linkTargets(rel: "canonical") == ["https://example.com/recipes/lemon-tart"])
        #expect(page.linkTargets(rel: "alternate") == ["https://cdn.example.com/fr/tarte-au-citron"])
        #expect(
            page.links.map(\.url) == [
                "https://cdn.example.com/", "https://cdn.example.com/recipes/",
                "https://cdn.example.com/site/other.html",
                "https://partner.example.org/",
            ])
        #expect(page.links.map(\.nofollow) == [false, false, true, false])
        #expect(page.jsonLDScripts.count == 1)
        #expect(page.jsonLDScripts.first?.text.contains("\"Recipe\"") == true)
        #expect(page.jsonLDScripts.first?.line == 19)
    }

    @Test("Visible text skips scripts, hidden elements and navigation")
    func visibleText() throws {
        let page = try Self.extract("pages/markup/recipe.html", url: "https://example.com/r")
        #expect(page.text.contains("This tart is sharp, bright and simple."))
        #expect(!page.text.contains("not text"))
        #expect(!page.text.contains("secret"))
        #expect(!page.text.contains("Home"))
        #expect(!page.text.contains("Copyright"))
    }
}
