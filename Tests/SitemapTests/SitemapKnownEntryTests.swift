import Markup
import Testing

/// A sitemap read again with the entries of its last read marked known (what a refresh does with a
/// changed sitemap): the known entries skip the URL check, and nothing else changes.
@Suite struct SitemapKnownEntryTests {
    static let document = SitemapFixture.urlset(
        """
        <url><loc>https://example.com/a</loc><lastmod>2026-11-01</lastmod></url>
        <url><loc>ftp://example.com/not-web</loc></url>
        <url><loc> https://example.com/b </loc></url>
        <url><loc>https://exa mple.com/bad-host</loc><lastmod>2026-11-02</lastmod></url>
        <url><loc>https://example.com/c</loc><lastmod>2026-11-03</lastmod></url>
        """)

    @Test("trusting the entries of the first read: counted and fingerprinted, not listed, the same issues")
    func sameSitemap() {
        let first = SitemapFixture.read(Self.document)
        #expect(first.pageURLs == ["https://example.com/a", "https://example.com/b", "https://example.com/c"])
        #expect(first.issueKinds == [.invalidURL, .invalidURL])
        #expect(first.knownPages == 0)
        #expect(first.pageFingerprints == first.pages.map(SitemapFingerprint.of))
        let kept = Set(first.pageFingerprints)
        var asked: [UInt64] = []
        let again = SitemapReader.read(
            Array(Self.document.utf8), url: SitemapFixture.url,
            isKnown: { fingerprint in
                asked.append(fingerprint)
                return kept.contains(fingerprint)
            })
        #expect(again.pages.isEmpty)
        #expect(again.knownPages == 3)
        #expect(again.pageCount == first.pageCount)
        #expect(again.pageFingerprints == first.pageFingerprints)
        #expect(again.issues == first.issues)
        // Every page entry is asked about, trimmed and with its date, as it would be returned.
        #expect(asked.count == 5)
        #expect(asked.contains(SitemapFingerprint.of(SitemapEntry(url: "https://example.com/b", lastModified: nil))))
        #expect(
            asked.contains(
                SitemapFingerprint.of(SitemapEntry(url: "https://example.com/c", lastModified: "2026-11-03"))))
    }

    @Test("an entry not known is listed, checked and fingerprinted among the known ones, in document order")
    func newAmongKnown() {
        let first = SitemapFixture.read(Self.document)
        let known = Set(first.pageFingerprints.dropLast())
        let again = SitemapReader.read(
            Array(Self.document.utf8), url: SitemapFixture.url, isKnown: { known.contains($0) })
        #expect(again.pageURLs == ["https://example.com/c"])
        #expect(again.knownPages == 2)
        #expect(again.pageFingerprints == first.pageFingerprints)
    }

    @Test("a known entry is kept without its URL checked; an entry whose date changed is checked again")
    func knownSkipsTheCheck() {
        let invalid = SitemapEntry(url: "https://exa mple.com/bad-host", lastModified: "2026-11-02")
        let trusted = SitemapReader.read(
            Array(Self.document.utf8), url: SitemapFixture.url,
            isKnown: { $0 == SitemapFingerprint.of(invalid) })
        // Only a digest collision could mark an invalid URL known; the check is skipped all the same.
        #expect(trusted.knownPages == 1)
        #expect(trusted.pageFingerprints.contains(SitemapFingerprint.of(invalid)))
        #expect(trusted.issueKinds == [.invalidURL])

        let redated = SitemapEntry(url: invalid.url, lastModified: "2026-10-01")
        let checked = SitemapReader.read(
            Array(Self.document.utf8), url: SitemapFixture.url,
            isKnown: { $0 == SitemapFingerprint.of(redated) })
        #expect(checked.knownPages == 0)
        #expect(!checked.pageURLs.contains(invalid.url))
        #expect(checked.issueKinds == [.invalidURL, .invalidURL])
    }

    @Test("known entries count towards the URL limit")
    func knownCountTowardsTheLimit() {
        let first = SitemapFixture.read(Self.document)
        let known = Set(first.pageFingerprints)
        let limited = SitemapReader.read(
            Array(Self.document.utf8), url: SitemapFixture.url, limits: SitemapLimits(maxURLs: 2),
            isKnown: { known.contains($0) })
        #expect(limited.knownPages == 2)
        #expect(limited.isTruncated)
        #expect(limited.issueKinds.contains(.tooManyURLs))
    }

    @Test("child sitemaps of an index are always checked")
    func childrenChecked() {
        let index = """
            <?xml version="1.0" encoding="UTF-8"?>
            <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <sitemap><loc>https://example.com/s1.xml</loc></sitemap>
            <sitemap><loc>gopher://example.com/s2.xml</loc></sitemap>
            </sitemapindex>
            """
        let sitemap = SitemapReader.read(Array(index.utf8), url: SitemapFixture.url, isKnown: { _ in true })
        #expect(sitemap.childURLs == ["https://example.com/s1.xml"])
        #expect(sitemap.issueKinds == [.invalidURL])
    }

    @Test("a URL the text cap cut inside a character is known again on the next read")
    func cutURLKnownAgain() {
        // One CDATA run longer than the cap (maxURLLength + 256 bytes): the cap ends inside the `é`.
        let limits = SitemapLimits()
        let padding = String(repeating: " ", count: limits.maxURLLength + 256 - "https://example.com/".utf8.count - 1)
        let document = SitemapFixture.urlset(
            "<url><loc><![CDATA[\(padding)https://example.com/é]]></loc><lastmod>2026-11-01</lastmod></url>")
        let first = SitemapFixture.read(document)
        #expect(first.pageFingerprints.count == 1)
        let known = Set(first.pageFingerprints)
        let again = SitemapReader.read(Array(document.utf8), url: SitemapFixture.url, isKnown: { known.contains($0) })
        #expect(again.knownPages == first.pageCount)
        #expect(again.pageFingerprints == first.pageFingerprints)
    }
}
