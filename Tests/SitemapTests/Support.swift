import FixtureServer
import Markup

/// Helpers shared by the sitemap tests.
enum SitemapFixture {
    /// The sitemap base URL used for inline documents.
    static let url = "https://example.com/sitemap.xml"

    /// Reads `text` as a sitemap file.
    static func read(_ text: String, limits: SitemapLimits = SitemapLimits()) -> Sitemap {
        SitemapReader.read(Array(text.utf8), url: url, limits: limits)
    }

    /// Reads the bytes of `path` under `Fixtures/` as a sitemap file fetched from `url`.
    static func read(fixture path: String, url: String = url, limits: SitemapLimits = SitemapLimits()) throws
        -> Sitemap
    {
        SitemapReader.read(try Fixtures.bytes(path), url: url, limits: limits)
    }

    /// A `urlset` document around `body`.
    static func urlset(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        \(body)
        </urlset>
        """
    }
}

extension Sitemap {
    /// The page URLs alone.
    var pageURLs: [String] { pages.map(\.url) }
    /// The child sitemap URLs alone.
    var childURLs: [String] { childSitemaps.map(\.url) }
    /// The kinds of the issues, in order.
    var issueKinds: [SitemapIssue.Kind] { issues.map(\.kind) }
}
