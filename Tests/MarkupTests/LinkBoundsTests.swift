import FixtureServer
import Markup
import Testing

/// Links are bounded in length and number, so a small page cannot make a large extraction.
@Suite("Link bounds", .timeLimit(.minutes(2)))
struct LinkBoundsTests {
    static func extract(_ html: String, url: String = "https://example.com/dir/page.html") -> PageMarkup {
        PageExtractor.extract(utf8: Array(html.utf8), url: url)
    }

    @Test("A <base href> longer than the URL bound is ignored, so links stay short; reported once")
    func longBase() throws {
        // A 30,000-character base and 3,300 relative links: 99 MB of links from a 63 KB page before
        // (4 s to extract in a debug build, more to serialize).
        let input = try Fixtures.bytes("fuzz/base-href-amplification")
        try #require(input.first == 0)
        let started = ContinuousClock.now
        let page = PageExtractor.extract(utf8: Array(input.dropFirst()), url: "https://example.com/dir/page.html")
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(page.baseURL == "https://example.com/dir/page.html")
        #expect(page.links.count == 3300)
        #expect(Set(page.links.map(\.url)) == ["https://example.com/dir/x"])
        #expect(
            page.issues == [
                MarkupIssue(
                    kind: "url",
                    message:
                        "<base href> longer than 4096 bytes once resolved: ignored, references resolve against "
                        + "the page URL",
                    line: 1)
            ])
    }

    @Test("Links and link tags longer than the bound once resolved are dropped, counted in one issue")
    func longLinks() {
        // "https://example.com/" is 20 bytes: paths of 4,076 and 4,077 bytes sit on either side of the bound.
        let fits = String(repeating: "f", count: PageExtractor.maxURLLength - 20)
        let long = String(repeating: "l", count: PageExtractor.maxURLLength - 19)
        let page = Self.extract(
            """
            <link rel="canonical" href="/\(long)">
            <link rel="alternate" href="/\(fits)">
            <a href="/short">s</a>
            <a href="/\(long)">l</a>
            <a href="/\(fits)">f</a>
            <a href="/short#\(long)">fragment</a>
            <a href="https://other.example/\(long)">l</a>
            """)
        #expect(page.linkTags.map(\.href) == ["https://example.com/\(fits)"])
        #expect(
            page.links.map(\.url) == [
                "https://example.com/short", "https://example.com/\(fits)", "https://example.com/short",
            ])
        #expect(
            page.issues == [
                MarkupIssue(
                    kind: "url", message: "dropped 2 links and 1 link tag longer than 4096 bytes once resolved", line: 1
                )
            ])
    }

    @Test("Only the first 10,000 links are read; the rest are counted in one issue with the first one's line")
    func linkCount() {
        let anchors = (0..<10_050).map { "<a href=\"/p\($0)\">\($0)</a>\n" }.joined()
        let page = Self.extract(anchors)
        #expect(page.links.count == PageExtractor.maxLinks)
        #expect(page.links.last?.url == "https://example.com/p9999")
        #expect(
            page.issues == [
                MarkupIssue(
                    kind: "links",
                    message:
                        "10050 links: read the first 10000 (at most 10000 links and 4194304 bytes of link URLs per page)",
                    line: 10_001)
            ])
    }

    @Test("Long links under a long base stop at the byte bound")
    func linkBytes() {
        // 12,000 links of 4,022 bytes each: 48 MB of links from a 124 KB page before (2 s in a debug build).
        let base = "<base href=\"https://example.com/\(String(repeating: "b", count: 4000))/\">"
        let started = ContinuousClock.now
        let page = Self.extract(base + String(repeating: "<a href=x>", count: 12_000))
        #expect(ContinuousClock.now - started < .seconds(60))
        let bytes = page.links.reduce(0) { $0 + $1.url.utf8.count }
        #expect(page.links.count == PageExtractor.maxLinkBytes / 4_022)
        #expect(bytes <= PageExtractor.maxLinkBytes)
        #expect(page.issues.map(\.kind) == ["links"])
        #expect(page.issues.first?.message.hasPrefix("12000 links: read the first 1042 ") == true)
    }

    @Test("Only the first 1,000 link tags are read")
    func linkTagCount() {
        let tags = (0..<1_005).map { "<link rel=\"alternate\" hreflang=\"x-\($0)\" href=\"/l\($0)\">\n" }.joined()
        let page = Self.extract(tags)
        #expect(page.linkTags.count == PageExtractor.maxLinkTags)
        #expect(page.linkTags.last?.hreflang == "x-999")
        #expect(
            page.issues == [
                MarkupIssue(
                    kind: "links", message: "1005 link tags: read the first 1000 (at most 1000 per page)", line: 1_001)
            ])
    }

    @Test("Unresolved references are kept as written, at most 100 and each cut to 512 characters")
    func unresolvedReferences() throws {
        let data = "data:text/html," + String(repeating: "x", count: 100_000)
        let anchors = (0..<300).map { "<a href=\"\($0 == 0 ? data : "javascript:f(\($0))")\">x</a>\n" }.joined()
        let page = Self.extract("<link rel=\"canonical\" href=\"https://exa mple.com/\">\n" + anchors)
        #expect(page.linkTags.isEmpty)
        #expect(page.links.isEmpty)
        #expect(page.unresolvedReferences.count == PageExtractor.maxUnresolvedReferences)
        let first = try #require(page.unresolvedReferences.first)
        #expect(first.element == .link(rel: ["canonical"]))
        #expect(first.href == "https://exa mple.com/")
        let second = page.unresolvedReferences[1]
        #expect(second.element == .anchor)
        #expect(second.line == 2)
        #expect(second.href.unicodeScalars.count == PageExtractor.maxUnresolvedReferenceLength)
        #expect(page.unresolvedReferences.last?.href == "javascript:f(98)")
    }
}
