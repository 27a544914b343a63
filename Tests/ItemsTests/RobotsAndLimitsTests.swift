import Items
import Markup
import Testing

@Suite("Robots directives and Apple's recommended limits")
struct RobotsAndLimitsTests {
    @Test(
        "Directives from meta robots, meta applebot and X-Robots-Tag combine",
        arguments: [
            ("<meta name=\"robots\" content=\"noindex\">", [String](), false, true, true),
            ("<meta name=\"applebot\" content=\"nofollow\">", [], true, false, true),
            ("<meta name=\"robots\" content=\"none\">", [], false, false, true),
            ("<meta name=\"robots\" content=\"NoSnippet, all\">", [], true, true, false),
            ("<meta name=\"robots\" content=\"all\"><meta name=\"robots\" content=\"noindex\">", [], false, true, true),
            ("<meta name=\"googlebot\" content=\"noindex\">", [], true, true, true),
            ("", ["noindex, nofollow"], false, false, true),
            ("", ["applebot: noindex"], false, true, true),
            ("", ["googlebot: noindex"], true, true, true),
            ("", ["max-snippet: 0"], true, true, false),
        ])
    func directives(head: String, headers: [String], index: Bool, follow: Bool, snippet: Bool) {
        let result = extraction(page(head: head), headers: headers.map { ("X-Robots-Tag", $0) })
        #expect(result.page.robots.index == index)
        #expect(result.page.robots.follow == follow)
        #expect(result.page.robots.snippet == snippet)
    }

    @Test("Apple's limits are warnings: title ≤ 90, description ≤ 300, 3–5 keywords, image ≥ 180 px")
    func limits() {
        let long = extraction(
            page(
                head: """
                    <title>\(String(repeating: "t", count: 91))</title>
                    <meta name="description" content="\(String(repeating: "d", count: 301))">
                    <meta name="keywords" content="one,two"><meta property="og:image" content="/i.png">
                    <meta property="og:image:width" content="120"><meta property="og:image:height" content="120">
                    """))
        let status = Dictionary(uniqueKeysWithValues: long.checks.map { ($0.name, $0.status) })
        #expect(status["title"] == .warn)
        #expect(status["description"] == .warn)
        #expect(status["keywords"] == .warn)
        #expect(status["image"] == .warn)
        let fine = extraction(
            page(
                head: """
                    <title>Fine</title><meta name="description" content="Short."><meta name="keywords" content="a,b,c">
                    <meta property="og:image" content="/i.png"><meta property="og:image:width" content="600"><meta property="og:image:height" content="400">
                    """))
        #expect(
            fine.checks.filter { ["title", "description", "keywords", "image"].contains($0.name) }.allSatisfy {
                $0.status == .pass
            })
    }
}
