import Markup
import Testing

@Suite("Microdata and RDFa")
struct StructuredDataTests {
    static func extract(_ body: String, url: String = "https://example.com/p") -> PageMarkup {
        PageExtractor.extract(utf8: Array("<html><body>\(body)</body></html>".utf8), url: url)
    }

    @Test("Microdata: nested items, itemref, itemid, value attributes by element")
    func microdata() throws {
        let page = Self.extract(
            """
            <div itemscope itemtype="https://schema.org/Recipe" itemid="/recipes/42" itemref="extra">
              <h1 itemprop="name">Lemon tart</h1>
              <img itemprop="image" src="/t.jpg">
              <a itemprop="url" href="/recipes/42">link</a>
              <time itemprop="totalTime" datetime="PT1H">an hour</time>
              <meta itemprop="recipeYield" content="8">
              <data itemprop="calories" value="420">420 kcal</data>
              <div itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Ana</span></div>
            </div>
            <p id="extra"><span itemprop="keywords">tart</span></p>
            <div itemscope itemtype="https://schema.org/Thing"><span itemprop="name">Second</span></div>
            """)
        #expect(page.microdata.count == 2)
        let recipe = try #require(page.microdata.first)
        #expect(recipe.types == ["https://schema.org/Recipe"])
        #expect(recipe.id == "https://example.com/recipes/42")
        #expect(
            recipe.properties.map(\.name) == [
                "name", "image", "url", "totalTime", "recipeYield", "calories", "author", "keywords",
            ])
        #expect(recipe.values("image") == [.url("https://example.com/t.jpg")])
        #expect(recipe.values("totalTime") == [.text("PT1H")])
        #expect(recipe.values("calories") == [.text("420")])
        guard case .item(let author) = recipe.values("author").first else {
            Issue.record("author must be a nested item")
            return
        }
        #expect(author.values("name") == [.text("Ana")])
    }

    @Test("Microdata: an itemref cycle ends")
    func microdataCycle() {
        let page = Self.extract(
            """
            <div id="a" itemscope itemtype="https://schema.org/Thing" itemref="b"><span itemprop="name">A</span></div>
            <div id="b" itemprop="related" itemscope itemtype="https://schema.org/Thing" itemref="a"><span itemprop="name">B</span></div>
            """)
        #expect(page.microdata.count == 1)
        #expect(page.microdata.first?.values("name") == [.text("A")])
    }

    @Test("RDFa Lite: vocab, typeof, property, resource, prefix and nested items")
    func rdfa() throws {
        let page = Self.extract(
            """
            <div vocab="http://schema.org/" typeof="Event" resource="#concert">
              <span property="name">Concert</span>
              <a property="url" href="/events/1">tickets</a>
              <div property="location" typeof="Place"><span property="name">Hall</span></div>
              <span prefix="dc: http://purl.org/dc/terms/" property="dc:creator">Ana</span>
              <meta property="startDate" content="2026-12-01">
            </div>
            """)
        let event = try #require(page.rdfa.first { $0.types == ["http://schema.org/Event"] })
        #expect(event.resource == "https://example.com/p#concert")
        #expect(
            event.properties.map(\.name) == [
                "http://schema.org/name", "http://schema.org/url", "http://schema.org/location",
                "http://purl.org/dc/terms/creator",
                "http://schema.org/startDate",
            ])
        #expect(event.properties[1].value == .url("https://example.com/events/1"))
        guard case .item(let place) = event.properties[2].value else {
            Issue.record("location must be a nested item")
            return
        }
        #expect(place.types == ["http://schema.org/Place"])
        #expect(place.properties.first?.value == .text("Hall"))
        #expect(page.rdfa.count == 1)
    }

    @Test("RDFa properties outside any typeof describe the page (Open Graph in RDFa)")
    func pageProperties() throws {
        let page = PageExtractor.extract(
            utf8: Array(
                "<html prefix=\"og: http://ogp.me/ns#\"><head><meta property=\"og:title\" content=\"T\"></head></html>"
                    .utf8),
            url: "https://example.com/p")
        let item = try #require(page.rdfa.first)
        #expect(item.types.isEmpty)
        #expect(item.resource == "https://example.com/p")
        #expect(item.properties == [RDFaProperty(name: "http://ogp.me/ns#title", value: .text("T"))])
    }
}

@Suite("Microdata and RDFa values and subjects")
struct StructuredValueTests {
    @Test("Text values skip scripts and styles and keep words apart across blocks")
    func readableText() {
        let page = StructuredDataTests.extract(
            """
            <div itemscope itemtype="https://schema.org/Thing"><span itemprop="name">Neil<style>b{color:red}</style></span>
            <div itemprop="description"><p>First</p>Second<br>Third<script>x()</script></div></div>
            """)
        #expect(page.microdata.first?.values("name") == [.text("Neil")])
        #expect(page.microdata.first?.values("description") == [.text("First Second Third")])
    }

    @Test("RDFa: resource without typeof starts a subject; typeof takes its IRI from about, resource, href, src")
    func subjects() throws {
        let page = StructuredDataTests.extract(
            """
            <div vocab="http://schema.org/">
              <div resource="/posts/1"><h2 property="name">Trouble</h2></div>
              <img typeof="ImageObject" src="/a.png">
              <div typeof="Article" about="/articles/9"><a property="author" typeof="Person" href="/bob"><span property="name">Bob</span></a></div>
            </div>
            """)
        let post = try #require(page.rdfa.first { $0.resource == "https://example.com/posts/1" })
        #expect(post.types.isEmpty)
        #expect(post.properties == [RDFaProperty(name: "http://schema.org/name", value: .text("Trouble"))])
        #expect(
            page.rdfa.contains {
                $0.types == ["http://schema.org/ImageObject"] && $0.resource == "https://example.com/a.png"
            })
        let article = try #require(page.rdfa.first { $0.types == ["http://schema.org/Article"] })
        #expect(article.resource == "https://example.com/articles/9")
        guard case .item(let author) = article.properties.first?.value else {
            Issue.record("author must be a nested item")
            return
        }
        #expect(author.resource == "https://example.com/bob")
    }
}

@Suite("Microdata limits")
struct MicrodataLimitTests {
    @Test("An itemref graph that doubles per level is cut off at the value budget and reported")
    func fanOut() {
        var html = "<div itemscope itemtype=\"https://schema.org/Thing\" itemref=\"a0 b0\">"
        for level in 0..<24 {
            let refs = level < 23 ? "a\(level + 1) b\(level + 1)" : ""
            for side in ["a", "b"] {
                html += "<div id=\"\(side)\(level)\" itemprop=\"p\(level)\" itemscope itemref=\"\(refs)\">x</div>"
            }
        }
        html += "</div>"
        let page = PageExtractor.extract(utf8: Array(html.utf8), url: "https://example.com/")
        #expect(page.microdata.count == 1)
        #expect(page.issues.contains { $0.kind == "microdata" && $0.message.contains("too large") })
    }
}
