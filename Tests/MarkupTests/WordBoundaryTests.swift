import Markup
import Testing

/// Where element boundaries separate words in the visible text (the snippet's source).
@Suite("Visible text: word boundaries at elements")
struct WordBoundaryTests {
    static func text(_ body: String) -> String {
        let html = "<!DOCTYPE html><html><head><title>T</title></head><body>\(body)</body></html>"
        return PageExtractor.extract(utf8: Array(html.utf8), url: "https://example.com/").text
    }

    @Test(
        "A block element separates words on both sides, as innerText lays it out",
        arguments: [
            ("<p>One.</p><a>x</a>", "One. x"),
            ("<p>One.</p>two", "One. two"),
            ("one<div>two</div>three", "one two three"),
            ("<h1>Title</h1>Text", "Title Text"),
            ("<ul><li>one</li><li>two</li></ul>", "one two"),
            ("<table><tr><td>1</td><td>2</td></tr><tr><th>3</th></tr></table>", "1 2 3"),
            ("<p>a<br>b</p>", "a b"),
            ("<section>A</section><article>B</article><details><summary>C</summary>D</details>", "A B C D"),
            ("<dl><dt>term</dt><dd>definition</dd></dl>", "term definition"),
            ("<blockquote>quote</blockquote><figure><figcaption>cap</figcaption></figure>", "quote cap"),
        ])
    func blocks(body: String, expected: String) {
        #expect(Self.text(body) == expected)
    }

    @Test(
        "Adjacent inline elements are separate words; inline formatting touching text is not split",
        arguments: [
            ("<a>x</a><a>y</a>", "x y"),
            ("<span>a</span><span>b</span>", "a b"),
            ("<a href=\"/1\">Home</a><a href=\"/2\">About</a><a href=\"/3\">Contact</a>", "Home About Contact"),
            ("<span><a>x</a></span><span><b>y</b></span>", "x y"),
            ("<a>x</a><!-- between --><a>y</a>", "x y"),
            ("<a>x</a><span hidden>gone</span><a>y</a>", "x y"),
            ("<i class=\"icon\"></i><span>Label</span>", "Label"),
            ("<b>W</b>ord", "Word"),
            ("W<b>ord</b>", "Word"),
            ("W<b>or</b>d", "Word"),
            ("H<sub>2</sub>O and E=mc<sup>2</sup>", "H2O and E=mc2"),
            ("x<img src=\"i.png\">y", "xy"),
            ("<span>a</span><script>var s;</script>b", "ab"),
            ("<p><em>Not</em> split, <strong>ever</strong>.</p>", "Not split, ever."),
        ])
    func inline(body: String, expected: String) {
        #expect(Self.text(body) == expected)
    }

    @Test("White space collapses to single spaces across boundaries")
    func whitespace() {
        #expect(Self.text("<p> One </p>\n\t <p>\u{A0}Two  three </p> <a>x</a> <a>y</a>") == "One Two three x y")
    }
}
