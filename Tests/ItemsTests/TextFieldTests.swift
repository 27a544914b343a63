import Items
import Testing

@Suite("Mapping: title, description, image, keywords")
struct TextFieldTests {
    @Test(
        "og:title, else <title>, else twitter:title",
        arguments: [
            (
                "<meta property=\"og:title\" content=\"OG\"><title>Doc</title><meta name=\"twitter:title\" content=\"TW\">",
                "OG"
            ),
            ("<title> Doc  title </title><meta name=\"twitter:title\" content=\"TW\">", "Doc title"),
            ("<meta name=\"twitter:title\" content=\"TW\">", "TW"),
            ("<meta property=\"og:title\" content=\"  \"><title>Doc</title>", "Doc"),
        ])
    func title(head: String, expected: String) {
        #expect(extraction(page(head: head)).item.attributeSet.title == expected)
    }

    @Test("og:description, else meta description, else a snippet of the visible text")
    func description() {
        let both = page(
            head: "<meta property=\"og:description\" content=\"OG\"><meta name=\"description\" content=\"Meta\">")
        #expect(extraction(both).item.attributeSet.contentDescription == "OG")
        let meta = page(head: "<meta name=\"description\" content=\"Meta\">", body: "<p>Body</p>")
        #expect(extraction(meta).item.attributeSet.contentDescription == "Meta")
        let body = page(body: "<nav>Menu</nav><p>The   body text.</p>")
        #expect(extraction(body).item.attributeSet.contentDescription == "The body text.")
    }

    @Test("nosnippet suppresses the generated snippet, from meta or X-Robots-Tag")
    func nosnippet() {
        let html = page(head: "<meta name=\"robots\" content=\"nosnippet\">", body: "<p>Body text</p>")
        #expect(extraction(html).item.attributeSet.contentDescription == nil)
        let header = extraction(page(body: "<p>Body text</p>"), headers: [("X-Robots-Tag", "nosnippet")])
        #expect(header.item.attributeSet.contentDescription == nil)
        #expect(extraction(page(body: "<p>Body text</p>")).item.attributeSet.contentDescription == "Body text")
    }

    @Test("A long body is cut at a word boundary with an ellipsis")
    func snippetLength() throws {
        let words = Array(repeating: "lorem ipsum", count: 100).joined(separator: " ")
        let description = try #require(extraction(page(body: "<p>\(words)</p>")).item.attributeSet.contentDescription)
        #expect(description.count <= 301)
        #expect(description.hasSuffix("…"))
        #expect(!description.dropLast().hasSuffix(" "))
    }

    @Test("og:image resolves against <base>; schema.org image is the fallback")
    func thumbnail() {
        let og = page(
            head: "<base href=\"https://cdn.example.com/a/\"><meta property=\"og:image\" content=\"img/x.jpg\">")
        #expect(extraction(og).item.attributeSet.thumbnailURL == "https://cdn.example.com/a/img/x.jpg")
        let imageObject = page(
            head: jsonLD(
                #"{"@context":"https://schema.org","@type":"Article","image":{"@type":"ImageObject","url":"/i.png"}}"#))
        #expect(extraction(imageObject).item.attributeSet.thumbnailURL == "https://example.com/i.png")
        let imageString = page(
            head: jsonLD(#"{"@context":"https://schema.org","@type":"Product","image":["https://x.org/p.jpg"]}"#))
        #expect(extraction(imageString).item.attributeSet.thumbnailURL == "https://x.org/p.jpg")
    }

    @Test("Keywords merge meta keywords, article:tag and schema.org keywords, deduplicated, at most 10")
    func keywords() {
        let html = page(
            head: """
                <meta name="keywords" content="Tart, lemon, , dessert">
                <meta property="article:tag" content="lemon"><meta property="article:tag" content="baking">
                \(jsonLD(#"{"@context":"https://schema.org","@type":"Recipe","keywords":"easy, TART, k1, k2, k3, k4, k5, k6"}"#))
                """)
        #expect(
            extraction(html).item.attributeSet.keywords == [
                "Tart", "lemon", "dessert", "baking", "easy", "k1", "k2", "k3", "k4", "k5",
            ])
    }
}

@Suite("Mapping: the generated snippet")
struct SnippetBoundaryTests {
    @Test(
        "Block and inline element boundaries separate words in the snippet",
        arguments: [
            ("<p>One.</p><a>x</a>", "One. x"),
            ("<p>Fresh lemons</p><ul><li>Zest</li><li>Juice</li></ul>", "Fresh lemons Zest Juice"),
            ("<p>Tags: <a>lemon</a><a>tart</a><a>baking</a></p>", "Tags: lemon tart baking"),
            ("<p><b>W</b>ord by word</p>", "Word by word"),
        ])
    func boundaries(body: String, expected: String) {
        #expect(extraction(page(body: body)).item.attributeSet.contentDescription == expected)
    }
}
