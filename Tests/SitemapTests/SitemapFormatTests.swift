import Markup
import Testing

/// Each format's grammar on small hand-written files: what counts as an entry, its URL and its date.
@Suite("Sitemap formats")
struct SitemapFormatTests {
    @Test("urlset: <loc> and <lastmod> trimmed, entities decoded, order and duplicates kept")
    func urlSet() {
        let sitemap = SitemapFixture.read(
            SitemapFixture.urlset(
                """
                <url><loc>
                  https://example.com/a?x=1&amp;y=&#50;
                </loc><lastmod> 2024-05-01 </lastmod><changefreq>daily</changefreq></url>
                <url><lastmod>2024-05-02</lastmod><loc>https://example.com/b</loc></url>
                <url><loc>https://example.com/a?x=1&amp;y=2</loc><lastmod></lastmod></url>
                """))
        #expect(sitemap.format == .urlSet)
        #expect(
            sitemap.pages == [
                SitemapEntry(url: "https://example.com/a?x=1&y=2", lastModified: "2024-05-01"),
                SitemapEntry(url: "https://example.com/b", lastModified: "2024-05-02"),
                SitemapEntry(url: "https://example.com/a?x=1&y=2", lastModified: nil),
            ])
        #expect(sitemap.issues.isEmpty)
        #expect(sitemap.childSitemaps.isEmpty)
    }

    @Test("sitemapindex: children, not pages, with lastmod")
    func sitemapIndex() {
        let sitemap = SitemapFixture.read(
            """
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap>
              <sitemap><loc>https://example.com/s2.xml</loc></sitemap>
            </sitemapindex>
            """)
        #expect(sitemap.format == .sitemapIndex)
        #expect(sitemap.pages.isEmpty)
        #expect(
            sitemap.childSitemaps == [
                SitemapEntry(url: "https://example.com/s1.xml.gz", lastModified: "2004-10-01T18:23:17+00:00"),
                SitemapEntry(url: "https://example.com/s2.xml"),
            ])
    }

    @Test("Relative, non-http and empty locations are skipped, each with a located issue")
    func rejectedLocations() {
        let sitemap = SitemapFixture.read(
            SitemapFixture.urlset(
                """
                <url><loc>/about.html</loc></url>
                <url><loc>ftp://example.com/file</loc></url>
                <url><loc>javascript:alert(1)</loc></url>
                <url><loc>https://</loc></url>
                <url><loc></loc></url>
                <url><changefreq>daily</changefreq></url>
                <url><loc>https://example.com/ok</loc></url>
                """))
        #expect(sitemap.pageURLs == ["https://example.com/ok"])
        #expect(sitemap.issueKinds == [.invalidURL, .invalidURL, .invalidURL, .invalidURL, .missingURL, .missingURL])
        #expect(sitemap.issues.map(\.line) == [3, 4, 5, 6, 7, 8])
        #expect(sitemap.issues[0].message.contains("/about.html"))
    }

    @Test("RSS 2.0: item links, pubDate, channel link and atom:link ignored, guid only when a web URL")
    func rss() {
        let sitemap = SitemapFixture.read(
            """
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
              <link>https://example.com/</link>
              <atom:link href="https://example.com/feed" rel="self"/>
              <item><title>A</title><link>https://example.com/a</link><pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate></item>
              <item><atom:link href="https://example.com/not-this"/><guid>https://example.com/b</guid></item>
              <item><guid isPermaLink="false">urn:uuid:1225c695</guid></item>
            </channel></rss>
            """)
        #expect(sitemap.format == .rss)
        #expect(
            sitemap.pages == [
                SitemapEntry(url: "https://example.com/a", lastModified: "Tue, 10 Jun 2003 04:00:00 GMT"),
                SitemapEntry(url: "https://example.com/b"),
            ])
        #expect(sitemap.issueKinds == [.missingURL])
        #expect(sitemap.issues.first?.line == 6)
    }

    @Test("RSS 1.0 (rdf:RDF): items beside the channel")
    func rss10() {
        let sitemap = SitemapFixture.read(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
              <channel rdf:about="https://example.com/"><link>https://example.com/channel</link></channel>
              <item rdf:about="https://example.com/x"><link>https://example.com/x</link></item>
            </rdf:RDF>
            """)
        #expect(sitemap.format == .rss)
        #expect(sitemap.pageURLs == ["https://example.com/x"])
    }

    @Test("Atom: alternate link or link without rel; published when updated is missing; self/edit never")
    func atom() {
        let sitemap = SitemapFixture.read(
            """
            <feed xmlns="http://www.w3.org/2005/Atom">
              <link href="https://example.com/" rel="self"/>
              <entry><link rel="edit" href="https://example.com/edit/1"/><link rel="alternate" href="https://example.com/1"/>
                <updated>2024-01-01T00:00:00Z</updated></entry>
              <entry><link href="https://example.com/2"/><published>2023-12-31</published></entry>
              <entry><link rel="edit" href="https://example.com/edit/3"/></entry>
            </feed>
            """)
        #expect(sitemap.format == .atom)
        #expect(
            sitemap.pages == [
                SitemapEntry(url: "https://example.com/1", lastModified: "2024-01-01T00:00:00Z"),
                SitemapEntry(url: "https://example.com/2", lastModified: "2023-12-31"),
            ])
        #expect(sitemap.issueKinds == [.missingURL])
    }

    @Test("Plain text: CRLF, CR and LF lines, blanks skipped quietly, garbage skipped with its line")
    func text() {
        let text = "https://example.com/1\r\n\r\n  https://example.com/2  \rnot a url\n# comment\nhttp://example.com/3"
        let sitemap = SitemapFixture.read(text)
        #expect(sitemap.format == .text)
        #expect(sitemap.pageURLs == ["https://example.com/1", "https://example.com/2", "http://example.com/3"])
        #expect(sitemap.issueKinds == [.invalidURL, .invalidURL])
        #expect(sitemap.issues.map(\.line) == [4, 5])
    }

    @Test("Plain text: non-UTF-8 lines and over-long lines are skipped with located issues")
    func textBadLines() {
        var bytes = Array("https://example.com/1\nhttps://example.com/\u{1}x\nhttps://example.com/".utf8)
        bytes += [0xE9, 0xFF, 0x0A]
        bytes += Array(("https://example.com/" + String(repeating: "a", count: 5000) + "\nhttps://example.com/4").utf8)
        let sitemap = SitemapReader.read(bytes, url: SitemapFixture.url)
        #expect(sitemap.pageURLs == ["https://example.com/1", "https://example.com/4"])
        #expect(sitemap.issueKinds == [.invalidURL, .invalidEncoding, .urlTooLong])
        #expect(sitemap.issues.map(\.line) == [2, 3, 4])
    }

    @Test("Format is judged by content, whatever the content type says")
    func sniffing() {
        let xml = SitemapReader.read(
            Array(SitemapFixture.urlset("<url><loc>https://example.com/</loc></url>").utf8), url: "https://example.com/s.txt",
            contentType: "text/plain")
        #expect(xml.format == .urlSet)
        let text = SitemapReader.read(
            Array("https://example.com/\n".utf8), url: "https://example.com/s.xml", contentType: "application/xml")
        #expect(text.format == .text)
        let html = SitemapFixture.read("<!DOCTYPE html><html><body><a href='https://example.com/'>x</a></body></html>")
        #expect(html.format == nil)
        #expect(html.pages.isEmpty)
        #expect(html.issueKinds == [.unknownFormat])
    }
}
