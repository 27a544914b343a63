import FixtureServer
import Foundation
import Markup
import TestSupport
import Testing

/// Broken input: what came before the damage is kept, the damage is located, nothing crashes or hangs.
@Suite("Sitemap robustness")
struct SitemapRobustnessTests {
    @Test("Unclosed tags: the URLs before the error, and the error with its line")
    func unclosedTags() {
        let sitemap = SitemapFixture.read(
            SitemapFixture.urlset(
                """
                <url><loc>https://example.com/1</loc></url>
                <url><loc>https://example.com/2</loc>
                <url><loc>https://example.com/3</loc></url>
                """))
        // <url> 2 never closes: its <loc> is whole, so it is kept; <url> 3 is nested inside it, not an entry.
        #expect(sitemap.pageURLs == ["https://example.com/1", "https://example.com/2"])
        #expect(sitemap.issueKinds == [.malformedXML])
        #expect(sitemap.issues.first?.line == 6)
        #expect(sitemap.issues.first?.message.contains("mismatch") == true)
    }

    @Test("A namespace error (an undeclared prefix, an empty namespace name) is an issue, not the end of the file")
    func namespaceErrorsDoNotStopReading() {
        let sitemap = SitemapFixture.read(
            SitemapFixture.urlset(
                """
                <url><loc>https://example.com/1</loc><image:image><image:loc>https://example.com/1.jpg</image:loc></image:image></url>
                <url xmlns:x=""><loc>https://example.com/2</loc></url>
                <url><loc>https://example.com/3</loc></url>
                """))
        // Namespace well-formedness errors are errors, not fatal ones: libxml2 reads on, and so does the reader.
        #expect(sitemap.pageURLs == ["https://example.com/1", "https://example.com/2", "https://example.com/3"])
        #expect(!sitemap.issues.isEmpty)
        #expect(sitemap.issueKinds.allSatisfy { $0 == .malformedXML })
        #expect(sitemap.issues.first?.line == 3)
    }

    @Test("An error deep in a large file keeps every URL before it and reads nothing after")
    func errorAfterManyURLs() {
        var body = (1...300).map { "<url><loc>https://example.com/\($0)</loc></url>" }
        body.append("<url><loc>https://example.com/?a=1&b=2</loc></url>")  // a bare & is not XML
        body += (302...310).map { "<url><loc>https://example.com/\($0)</loc></url>" }
        let sitemap = SitemapFixture.read(SitemapFixture.urlset(body.joined(separator: "\n")))
        #expect(sitemap.pageURLs == (1...300).map { "https://example.com/\($0)" })
        #expect(sitemap.issueKinds == [.malformedXML, .missingURL])
        #expect(sitemap.issues.map(\.line) == [303, 303])
    }

    @Test("A file cut inside <loc> drops that entry; a cut after </loc> keeps it")
    func truncatedFile() {
        let head =
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://example.com/1</loc></url>"
        let insideLoc = SitemapFixture.read(head + "<url><loc>https://example.com/tw")
        #expect(insideLoc.pageURLs == ["https://example.com/1"])
        #expect(insideLoc.issueKinds.contains(.missingURL))
        let afterLoc = SitemapFixture.read(head + "<url><loc>https://example.com/2</loc><lastmod>2024-0")
        #expect(
            afterLoc.pages == [SitemapEntry(url: "https://example.com/1"), SitemapEntry(url: "https://example.com/2")])
        let index = SitemapFixture.read(
            "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sitemap><loc>https://example.com/s1.xml</loc><las"
        )
        #expect(index.childURLs == ["https://example.com/s1.xml"])
    }

    @Test("Bytes that are not UTF-8 in a UTF-8 document end it there, located; declared Latin-1 is decoded")
    func encodings() {
        var bytes = Array(
            SitemapFixture.urlset(
                "<url><loc>https://example.com/1</loc></url>\n<url><loc>https://example.com/X</loc></url>"
            )
            .utf8)
        if let index = bytes.lastIndex(of: UInt8(ascii: "X")) { bytes[index] = 0xE9 }
        let broken = SitemapReader.read(bytes, url: SitemapFixture.url)
        #expect(broken.pageURLs == ["https://example.com/1"])
        #expect(broken.issueKinds.first == .malformedXML)
        #expect(broken.issues.first?.line == 4)

        let latin1 = Array(
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>https://example.com/X</loc></url></urlset>"
                .utf8
        )
        .map { $0 == UInt8(ascii: "X") ? 0xE9 : $0 }
        #expect(SitemapReader.read(latin1, url: SitemapFixture.url).pageURLs == ["https://example.com/é"])

        let document = SitemapFixture.urlset("<url><loc>https://example.com/ü</loc></url>")
            .replacingOccurrences(of: "UTF-8", with: "UTF-16")
        let utf16: [UInt8] = [0xFF, 0xFE] + document.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(SitemapReader.read(utf16, url: SitemapFixture.url).pageURLs == ["https://example.com/ü"])
    }

    @Test("Empty, blank and empty-gzip input: no format, one emptyInput issue")
    func emptyInput() {
        let emptyGzip: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        for bytes in [[], Array(" \n\t\r\n".utf8), emptyGzip] {
            let sitemap = SitemapReader.read(bytes, url: SitemapFixture.url)
            #expect(sitemap.format == nil)
            #expect(sitemap.pages.isEmpty && sitemap.childSitemaps.isEmpty)
            #expect(sitemap.issueKinds == [.emptyInput])
        }
        let root = SitemapFixture.read("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>")
        #expect(root.format == .urlSet)
        #expect(root.issues.isEmpty)
    }

    @Test("Binary garbage is an unknown format, not thousands of bad lines")
    func binary() {
        var generator = SeededRandom(seed: 7)
        let bytes = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let sitemap = SitemapReader.read(bytes, url: SitemapFixture.url, contentType: "image/png")
        #expect(sitemap.format == nil)
        #expect(sitemap.issueKinds == [.unknownFormat])
        #expect(sitemap.issues.first?.message.contains("image/png") == true)
    }

    @Test("Deep nesting and entity expansion bombs stop at libxml2's bounds")
    func hostileXML() {
        let deep = String(repeating: "<a>", count: 100_000)
        let nested = SitemapFixture.read("<urlset><url><loc>https://example.com/1</loc></url>" + deep)
        #expect(nested.pageURLs == ["https://example.com/1"])
        #expect(nested.issueKinds.contains(.malformedXML))

        var laughs = "<!DOCTYPE urlset [<!ENTITY l0 \"lol\">"
        for level in 1...10 {
            laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        laughs +=
            "]><urlset><url><loc>https://example.com/&l10;</loc></url><url><loc>https://example.com/2</loc></url></urlset>"
        // libxml2 refuses the expansion ("entity reference loop") as a fatal error: the half-read <loc> is
        // not taken for a URL, and nothing after it is read. Issues come in document order: the root's
        // missing namespace, then the error.
        let bomb = SitemapFixture.read(laughs)
        #expect(bomb.pages.isEmpty)
        #expect(bomb.issueKinds.first { $0 != .unexpectedNamespace } == .malformedXML)
        #expect(bomb.issues.count <= 12)
    }

    @Test("Damaged corpus files never crash, and every URL kept is http(s) within the length limit", arguments: 0..<8)
    func mutations(_ seed: UInt64) throws {
        var generator = SeededRandom(seed: seed)
        let limits = SitemapLimits(maxURLLength: 200)
        for sample in SitemapManifest.cases {
            var bytes = try SitemapManifest.bytes(sample.file)
            guard !bytes.isEmpty else { continue }
            for _ in 0..<max(1, bytes.count / 200) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) {
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            }
            let sitemap = SitemapReader.read(bytes, url: sample.url, limits: limits)
            for entry in sitemap.pages + sitemap.childSitemaps {
                #expect(entry.url.lowercased().hasPrefix("http"))
                #expect(entry.url.utf8.count <= 200)
            }
            #expect(sitemap.issues.count <= limits.maxIssues + 1)
        }
    }
}
