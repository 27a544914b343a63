import FixtureServer
import Markup
import Testing

/// The bounds: URL count, URL length, uncompressed size (zip bombs), issue count; and gzip's own faults.
@Suite("Sitemap limits and gzip")
struct SitemapLimitTests {
    /// `Fixtures/sitemaps/urlset-100k.xml.gz`: a 100-byte header, then 100,000 identical 47-byte lines
    /// `<url><loc>https://example.com/page</loc></url>\n` and no end tag: 13,821 bytes inflating to 4,700,100.
    static let bomb = "sitemaps/urlset-100k.xml.gz"
    static let bombHeader = 100
    static let bombLine = 47

    @Test("maxURLs keeps the first N entries in order, then stops with an issue and isTruncated")
    func urlCount() {
        let urls = (1...10).map { "<url><loc>https://example.com/\($0)</loc></url>" }.joined(separator: "\n")
        let sitemap = SitemapFixture.read(SitemapFixture.urlset(urls), limits: SitemapLimits(maxURLs: 3))
        #expect(sitemap.pageURLs == ["https://example.com/1", "https://example.com/2", "https://example.com/3"])
        #expect(sitemap.isTruncated)
        #expect(sitemap.issueKinds == [.tooManyURLs])
        #expect(sitemap.issues.first?.line == 6)

        let text = SitemapFixture.read(
            (1...10).map { "https://example.com/\($0)" }.joined(separator: "\n"), limits: SitemapLimits(maxURLs: 4))
        #expect(text.pages.count == 4)
        #expect(text.isTruncated)
        #expect(text.issueKinds == [.tooManyURLs])
    }

    @Test("Exactly maxURLs entries is not truncation; skipped URLs do not count")
    func urlCountBoundary() {
        let urls = ["https://example.com/1", "not a url", "https://example.com/2"]
        let sitemap = SitemapFixture.read(urls.joined(separator: "\n"), limits: SitemapLimits(maxURLs: 2))
        #expect(sitemap.pages.count == 2)
        #expect(!sitemap.isTruncated)
        #expect(sitemap.issueKinds == [.invalidURL])
    }

    @Test("URLs over maxURLLength are skipped; a megabyte <loc> costs no more than the limit")
    func urlLength() {
        let long = "https://example.com/" + String(repeating: "a", count: 20)
        let small = SitemapFixture.read(
            SitemapFixture.urlset("<url><loc>\(long)</loc></url><url><loc>https://example.com/b</loc></url>"),
            limits: SitemapLimits(maxURLLength: 30))
        #expect(small.pageURLs == ["https://example.com/b"])
        #expect(small.issueKinds == [.urlTooLong])

        let huge = "https://example.com/" + String(repeating: "x", count: 1 << 20)
        let sitemap = SitemapFixture.read(SitemapFixture.urlset("<url><loc>\(huge)</loc></url>"))
        #expect(sitemap.pages.isEmpty)
        #expect(sitemap.issueKinds == [.urlTooLong])
        #expect(sitemap.issues[0].message.utf8.count < 300)
    }

    @Test("A gzip bomb stops at maxUncompressedBytes: the URLs inflated so far, an issue, isTruncated")
    func gzipBomb() throws {
        let limit = 1 << 20
        let sitemap = try SitemapFixture.read(fixture: Self.bomb, limits: SitemapLimits(maxUncompressedBytes: limit))
        // The cut falls exactly at the end of a line here, so every URL before it is whole.
        #expect((limit - Self.bombHeader) % Self.bombLine == 0)
        #expect(sitemap.pages.count == (limit - Self.bombHeader) / Self.bombLine)
        #expect(sitemap.isTruncated)
        #expect(sitemap.issueKinds == [.tooLarge])
    }

    @Test("A cut inside a <url> keeps it only when its <loc> was complete")
    func cutInsideEntry() throws {
        let whole = (1 << 20 - Self.bombHeader) / Self.bombLine
        // 45 bytes into a line: past `</loc>` (40), before `</url>`.
        let afterLoc = try SitemapFixture.read(
            fixture: Self.bomb, limits: SitemapLimits(maxUncompressedBytes: 1 << 20 + 45))
        #expect(afterLoc.pages.count == whole + 1)
        #expect(afterLoc.issueKinds == [.tooLarge])
        // 30 bytes into a line: inside `<loc>`; `https://examp` must not become a URL.
        let insideLoc = try SitemapFixture.read(
            fixture: Self.bomb, limits: SitemapLimits(maxUncompressedBytes: 1 << 20 + 30))
        #expect(insideLoc.pages.count == whole)
        #expect(insideLoc.issueKinds == [.missingURL, .tooLarge])
    }

    @Test("The same bomb with default limits stops at 50,000 URLs, having inflated only what they took")
    func gzipBombDefaultLimits() throws {
        let sitemap = try SitemapFixture.read(fixture: Self.bomb)
        #expect(sitemap.pages.count == 50_000)
        #expect(sitemap.isTruncated)
        #expect(sitemap.issueKinds == [.tooManyURLs])
    }

    @Test("60 MiB of gzip'd spaces stop at the default 50 MiB cap")
    func defaultByteCap() throws {
        let sitemap = try SitemapFixture.read(fixture: "sitemaps/spaces-60m.txt.gz")
        #expect(sitemap.format == .text)
        #expect(sitemap.pages.isEmpty)
        #expect(sitemap.isTruncated)
        #expect(sitemap.issueKinds == [.urlTooLong, .tooLarge])
    }

    @Test("Gzip: concatenated members are one stream; a cut or corrupt stream keeps what inflated before")
    func gzipFaults() throws {
        let member = try SitemapManifest.bytes("crawler-commons/sitemaps/sitemap.txt.gz")
        let twice = SitemapReader.read(member + member, url: SitemapFixture.url)
        #expect(twice.pages.count == 10)
        #expect(twice.issues.isEmpty)

        let trailing = SitemapReader.read(member + Array("junk".utf8), url: SitemapFixture.url)
        #expect(trailing.pages.count == 5)
        #expect(trailing.issueKinds == [.compression])

        let bomb = try Fixtures.bytes(Self.bomb)
        let cut = SitemapReader.read(Array(bomb.prefix(2000)), url: SitemapFixture.url)
        #expect(cut.pages.count > 100)
        #expect(cut.issueKinds.last == .compression)
        #expect(cut.issues.last?.message.contains("cut short") == true)

        var corrupt = member
        for index in 12..<40 { corrupt[index] ^= 0x5A }
        let broken = SitemapReader.read(corrupt, url: SitemapFixture.url)
        #expect(broken.issueKinds.contains(.compression))
        #expect(broken.pages.count < 5)
    }

    @Test("Issues stop at maxIssues, the last one counting the rest")
    func issueCap() {
        let text = (1...250).map { "bad line \($0)" }.joined(separator: "\n")
        let sitemap = SitemapFixture.read(text, limits: SitemapLimits(maxIssues: 100))
        #expect(sitemap.issues.count == 101)
        #expect(sitemap.issues.last?.kind == .tooManyIssues)
        #expect(sitemap.issues.last?.message == "150 more issues not listed")
    }
}
