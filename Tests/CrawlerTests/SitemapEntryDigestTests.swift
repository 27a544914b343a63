import Markup
import Testing

@testable import Crawler

@Suite("A sitemap's entries as read, for the next refresh")
struct SitemapEntryDigestTests {
    @Test("an entry is known with the same URL and the same date as written; the digest survives storage")
    func known() throws {
        let entries = (0..<1000).map {
            SitemapEntry(url: "https://example.com/p\($0)", lastModified: "2024-01-0\($0 % 9 + 1)")
        }
        let digest = SitemapEntryDigest(entries: entries)
        let stored = try #require(SitemapEntryDigest(body: digest.body))
        #expect(stored.digests == digest.digests)
        #expect(entries.allSatisfy(stored.contains))
        #expect(!stored.contains(SitemapEntry(url: "https://example.com/p1", lastModified: "2024-01-09")))
        #expect(!stored.contains(SitemapEntry(url: "https://example.com/p1000", lastModified: "2024-01-02")))
        #expect(!stored.contains(SitemapEntry(url: "https://example.com/p1", lastModified: nil)))
        // The digest is the same in every process (FNV-1a, not the seeded Hasher).
        #expect(SitemapEntryDigest.digest(SitemapEntry(url: "a", lastModified: nil)) == 0x089b_e207_b544_f1e4)
    }

    @Test(
        "a stored body that is not a digest is ignored",
        arguments: [[UInt8](repeating: 1, count: 7), [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]])
    func notADigest(body: [UInt8]) {
        #expect(SitemapEntryDigest(body: body) == nil)
    }
}
