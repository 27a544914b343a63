/// The bounds one sitemap file is read within. Defaults are the sitemaps.org protocol's own limits
/// (https://www.sitemaps.org/protocol.html#index): 50,000 URLs and 50 MB uncompressed per file.
package struct SitemapLimits: Sendable, Hashable {
    /// Entries kept per file (page URLs and child sitemaps together). Reaching it stops the read with a
    /// ``SitemapIssue/Kind/tooManyURLs`` issue and ``Sitemap/isTruncated``.
    package var maxURLs: Int
    /// Bytes of content read per file after gzip decompression. Inflation stops there (so a zip bomb costs
    /// this much and no more), with a ``SitemapIssue/Kind/tooLarge`` issue and ``Sitemap/isTruncated``.
    package var maxUncompressedBytes: Int
    /// Longest URL kept, in UTF-8 bytes; longer ones are skipped with a ``SitemapIssue/Kind/urlTooLong`` issue.
    package var maxURLLength: Int
    /// Issues listed per file; any further ones are only counted, in one final
    /// ``SitemapIssue/Kind/tooManyIssues`` issue.
    package var maxIssues: Int

    /// Limits with the protocol's defaults, each overridable.
    package init(
        maxURLs: Int = 50_000, maxUncompressedBytes: Int = 50 * 1024 * 1024, maxURLLength: Int = 2048,
        maxIssues: Int = 100
    ) {
        self.maxURLs = max(0, maxURLs)
        self.maxUncompressedBytes = max(0, maxUncompressedBytes)
        self.maxURLLength = max(0, maxURLLength)
        self.maxIssues = max(1, maxIssues)
    }
}
