import Markup
import Testing

/// crawler-commons' sitemap samples (`Fixtures/conformance/sitemaps/`, Apache-2.0) with the counts their
/// tests assert, restated by the corpus's `MANIFEST.json`; then the exact values upstream checks.
@Suite("Sitemap conformance (crawler-commons samples)")
struct SitemapConformanceTests {
    @Test("The manifest lists 20 files")
    func corpus() {
        #expect(SitemapManifest.cases.count == 20)
    }

    @Test("Every manifest entry gives its page and child sitemap counts", arguments: SitemapManifest.cases)
    func counts(_ sample: SitemapCase) throws {
        let sitemap = try sample.read()
        #expect(sitemap.pages.count == sample.pagesToAssert, "pages of \(sample.file): \(sitemap.pageURLs)")
        #expect(sitemap.childSitemaps.count == sample.childrenToAssert, "children of \(sample.file)")
        #expect(!sitemap.isTruncated)
        #expect(sitemap.format != nil)
    }

    @Test("The namespaced urlset: two URLs, no issue")
    func namespacedURLSet() throws {
        let sitemap = try read("crawler-commons/sitemaps/sitemap.ns.xml")
        #expect(sitemap.format == .urlSet)
        #expect(sitemap.pageURLs == ["http://www.example.com/1", "http://www.example.com/2"])
        #expect(sitemap.issues.isEmpty)
    }

    @Test("A urlset in the wrong namespace is read leniently, with a located issue")
    func wrongNamespace() throws {
        let sitemap = try read("crawler-commons/sitemaps/sitemap.badns.xml")
        #expect(sitemap.pageURLs == ["http://www.example.com/1", "http://www.example.com/2"])
        #expect(sitemap.issues.map(\.kind) == [.unexpectedNamespace])
        // The start tag spans lines 2 and 3; libxml2 records an element at the line its start tag ends.
        #expect(sitemap.issues.first?.line == 3)
    }

    @Test("A sitemap index whose <sitemap> elements lack <loc> gives its 15 children, entities decoded")
    func indexWithoutLoc() throws {
        let sitemap = try read("crawler-commons/sitemaps/sitemap.index.xml")
        #expect(sitemap.format == .sitemapIndex)
        #expect(sitemap.childURLs.first == "https://example.com/sitemap.jss?portalCode=10260&lang=en")
        #expect(sitemap.childURLs.last == "https://example.com/sitemap.jss?portalCode=10570&lang=en")
        #expect(sitemap.issues.count == 15)
        #expect(sitemap.issues.allSatisfy { $0.kind == .missingURL })
        #expect(sitemap.issues.first?.line == 3)
    }

    @Test("Gzip XML: five URLs with &amp; decoded and lastmod as written")
    func gzipXML() throws {
        let sitemap = try read("crawler-commons/sitemaps/xmlSitemap.gz")
        #expect(sitemap.format == .urlSet)
        #expect(sitemap.pages[1].url == "http://www.example.com/catalog?item=12&desc=vacation_hawaii")
        #expect(sitemap.pages.map(\.lastModified) == ["2005-01-01", nil, "2004-12-23", "2004-12-23T18:00:15+00:00", "2004-11-23"])
    }

    @Test("Gzip text: five URLs")
    func gzipText() throws {
        let sitemap = try read("crawler-commons/sitemaps/sitemap.txt.gz")
        #expect(sitemap.format == .text)
        #expect(sitemap.pageURLs.last == "http://www.example.com/catalog?item=83&desc=vacation_usa")
    }

    @Test("A text sitemap with a UTF-8 BOM is sniffed as text and the BOM stays out of the first URL")
    func byteOrderMark() throws {
        let sitemap = try read("crawler-commons/sitemaps/sitemap-with-bom.txt")
        #expect(sitemap.format == .text)
        #expect(sitemap.pageURLs == ["http://www.domain.com/page1.html", "http://www.domain.com/page2.html"])
    }

    @Test("Atom: the entry's alternate link (not rel=edit), with <updated>")
    func atom() throws {
        let sitemap = try read("crawler-commons/sitemaps/atom.xml")
        #expect(sitemap.format == .atom)
        #expect(sitemap.pages == [SitemapEntry(url: "http://example.org/2003/12/13/atom03", lastModified: "2003-12-13T18:30:02Z")])
    }

    @Test("RSS: link, guid when there is no link, &amp; and CDATA in links; pubDate kept")
    func rss() throws {
        let sitemap = try read("crawler-commons/rss/feed.rss")
        #expect(sitemap.format == .rss)
        #expect(
            sitemap.pageURLs == [
                "https://www.example.com/blog/post/1", "https://www.example.com/guid.html",
                "https://www.example.com/foo?q=a&l=en", "https://www.example.com/foo?q=a&l=fr",
            ])
        #expect(sitemap.pages.first?.lastModified == "Sun, 06 Sep 2009 16:20:00 +0000")
    }

    @Test("RSS pubDate variants are kept as written; empty and missing ones are nil")
    func rssDates() throws {
        let sitemap = try read("crawler-commons/rss/xmlRss_pubDate.xml")
        #expect(sitemap.pageURLs == (1...7).map { "http://www.example.com/article_\($0)" })
        #expect(sitemap.pages[1].lastModified == "Thu, 05 Jan 17 13:34:52 +0100")
        #expect(sitemap.pages[4].lastModified == "05 Jan 17 13:34:55")
        #expect(sitemap.pages[5].lastModified == nil)
        #expect(sitemap.pages[6].lastModified == nil)
    }

    @Test("Extension elements never count as pages (image:loc, video:*_loc, xhtml:link, PageMap)")
    func extensions() throws {
        #expect(try read("crawler-commons/sitemaps/extension/sitemap-images.xml").pageURLs == [
            "http://www.example.com/images/some_image_landing_page.html"
        ])
        // <loc> after the <video:video> block still counts.
        #expect(try read("crawler-commons/sitemaps/extension/sitemap-videos-tvshow.xml").pageURLs == [
            "https://example.org/my-tv-show/23/13/"
        ])
        let real = try read("crawler-commons/sitemaps/extension/hebdenbridgetimes-articles-sitemap.xml")
        #expect(real.pages.first?.lastModified == "2015-05-03T18:51:50+01:00")
        #expect(real.issues.isEmpty)
    }

    private func read(_ file: String) throws -> Sitemap {
        let sample = try #require(SitemapManifest.cases.first { $0.file == file })
        return try sample.read()
    }
}
