import FixtureServer
import Testing

@testable import Markup

/// The microdata crawl is bounded in work, not only in output: each item element is crawled and each
/// property value worked out once per page, and what the crawls visit is charged to a per-page budget.
@Suite("Microdata crawl bounds", .timeLimit(.minutes(2)))
struct MicrodataBoundsTests {
    /// The page of a `Fixtures/fuzz/` input whose selector byte is 0: no headers, the fuzzer's first URL.
    static func fuzzPage(_ name: String) throws -> [UInt8] {
        let input = try Fixtures.bytes("fuzz/\(name)")
        try #require(input.first == 0)
        return Array(input.dropFirst())
    }

    /// Every property value of `items`, nested ones included.
    static func valueCount(_ items: [MicrodataItem]) -> Int {
        items.reduce(0) { total, item in
            item.properties.reduce(total) { sum, property in
                if case .item(let nested) = property.value { return sum + 1 + valueCount([nested]) }
                return sum + 1
            }
        }
    }

    @Test("A fan-out whose items all itemref one large subtree crawls it once per item, not once per path")
    func fanOutCrawl() throws {
        // 24 levels of two items each naming both items of the next level and a shared 3,000-element subtree.
        // Before: the subtree was re-crawled on each of the ~20,000 paths the value budget let through
        // (97 s in a debug build); now 49 crawls.
        let html = try Self.fuzzPage("microdata-fanout-crawl-work")
        let started = ContinuousClock.now
        let page = PageExtractor.extract(utf8: html, url: "https://example.com/dir/page.html")
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(page.microdata.count == 1)
        // The output is what it was before the fix: the value budget's cut, reported.
        #expect(Self.valueCount(page.microdata) == MicrodataReader.maxValues)
        // The first level-0 item's copies alone spend the budget; the second gets no place.
        #expect(page.microdata.first?.properties.map(\.name) == ["p0"])
        let issues = page.issues.filter { $0.kind == "microdata" }
        #expect(issues.map(\.message) == ["itemref graph too large: stopped after 20000 property values"])
    }

    @Test("Many items that each itemref one large subtree exhaust the crawl budget, reported once")
    func sharedTargetCrawl() throws {
        // 2,000 top-level items each crawl a 3,002-element subtree: 6 million visits before the fix (10 s in a
        // debug build); the budget stops after about 70 crawls.
        let html =
            "<div id=\"big\"><span itemprop=\"name\">Big</span>" + String(repeating: "<i></i>", count: 3000)
            + "</div>" + String(repeating: "<div itemscope itemref=\"big\"></div>", count: 2000)
        let started = ContinuousClock.now
        let page = PageExtractor.extract(utf8: Array(html.utf8), url: "https://example.com/")
        // A hang guard only (the value-size checks below are the test); loose for a loaded CI machine.
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(page.microdata.count == 2000)
        #expect(page.microdata.first?.values("name") == [.text("Big")])
        #expect(page.microdata.last?.properties.isEmpty == true)
        let crawled = page.microdata.prefix { !$0.properties.isEmpty }.count
        // Each item visits the subtree's 3,002 elements; the budget is 200,000 plus two per element of the page
        // (5,004 with <html> and <body>). A crawl goes in tree order, so the item it runs out in has already
        // found its name, the subtree's first element.
        #expect(crawled == (MicrodataReader.baseCrawlSteps + 2 * 5_004) / 3_002 + 1)
        let issues = page.issues.filter { $0.kind == "microdata" }
        #expect(issues.count == 1)
        #expect(issues.first?.message.hasPrefix("itemref crawl too large: stopped after 210008 element visits") == true)
    }

    @Test("Items sharing an itemref target each get its values; remembered values are not shared wrongly")
    func sharedTargetValues() {
        let html = """
            <div itemscope itemtype="https://schema.org/Thing" itemref="shared"><span itemprop="name">One</span></div>
            <div itemscope itemtype="https://schema.org/Thing" itemref="shared"><span itemprop="name">Two</span></div>
            <p id="shared"><a itemprop="url" href="/s">s</a><span itemprop="note keywords">n</span></p>
            """
        let page = PageExtractor.extract(utf8: Array(html.utf8), url: "https://example.com/dir/")
        #expect(page.microdata.map { $0.values("name") } == [[.text("One")], [.text("Two")]])
        for item in page.microdata {
            #expect(item.properties.map(\.name) == ["name", "url", "note", "keywords"])
            #expect(item.values("url") == [.url("https://example.com/s")])
            #expect(item.values("keywords") == [.text("n")])
        }
        #expect(page.issues.isEmpty)
    }

    @Test("A cycle is still cut per path: an item reached from inside itself is empty there, whole elsewhere")
    func cyclePerPath() throws {
        // a → b → a: on the path from a, b's reference back to a is cut; b reached from c (not in the cycle's
        // path) expands a fully, which holds b again, cut there.
        let html = """
            <div id="a" itemprop="x" itemscope itemref="b"><span itemprop="name">A</span></div>
            <div id="b" itemprop="y" itemscope itemref="a"><span itemprop="name">B</span></div>
            <div itemscope itemref="a"><span itemprop="name">C</span></div>
            <div itemscope itemref="b"><span itemprop="name">D</span></div>
            """
        let page = PageExtractor.extract(utf8: Array(html.utf8), url: "https://example.com/")
        #expect(page.microdata.count == 2)
        let c = try #require(page.microdata.first)
        guard case .item(let a) = c.values("x").first, case .item(let b) = a.values("y").first else {
            Issue.record("c → a → b must be nested items")
            return
        }
        #expect(a.values("name") == [.text("A")])
        #expect(b.values("name") == [.text("B")])
        #expect(b.values("x") == [.text("")])
        let d = try #require(page.microdata.last)
        guard case .item(let b2) = d.values("y").first, case .item(let a2) = b2.values("x").first else {
            Issue.record("d → b → a must be nested items")
            return
        }
        #expect(a2.values("y") == [.text("")])
    }

    @Test("Text values are bounded: nested properties around a large text do not multiply it")
    func nestedTextValues() throws {
        // 250 nested itemprop elements around 200 KB of text: every property's value was the whole
        // text (50 MB of values); now each value stops at maxReadableTextBytes.
        let text = String(repeating: "word ", count: 40_000)
        let opening = String(repeating: "<div itemprop=\"p\">", count: 250)
        let closing = String(repeating: "</div>", count: 250)
        let html = "<div itemscope itemtype=\"https://schema.org/Thing\">\(opening)\(text)\(closing)</div>"
        let started = ContinuousClock.now
        let page = PageExtractor.extract(utf8: Array(html.utf8), url: "https://example.com/")
        // A hang guard only (the value-size checks below are the test); loose for a loaded CI machine.
        #expect(ContinuousClock.now - started < .seconds(60))
        let values =
            page.microdata.first?.properties.compactMap { property -> String? in
                if case .text(let value) = property.value { return value }
                return nil
            } ?? []
        #expect(values.count == 250)
        #expect(values.allSatisfy { $0.utf8.count <= HTMLNode.maxReadableTextBytes && $0.hasPrefix("word word") })
        #expect(values.first?.utf8.count ?? 0 >= HTMLNode.maxReadableTextBytes - 5)
    }
}
