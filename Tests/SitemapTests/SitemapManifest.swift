import FixtureServer
import Foundation
import Markup
import Testing

/// One entry of `Fixtures/conformance/sitemaps/MANIFEST.json`: a crawler-commons sample file and the URL
/// and child-sitemap counts upstream's tests (or the corpus) expect of it.
struct SitemapCase: Sendable, Hashable, CustomTestStringConvertible {
    /// The file, relative to the manifest's folder.
    let file: String
    /// The manifest's description of the format.
    let format: String
    /// The URL upstream read the file as, if it named one.
    let baseURL: String?
    /// Expected page URLs; `nil` where the manifest has no number.
    let expectedPages: Int?
    /// Expected child sitemaps; `nil` where the manifest has no number.
    let expectedChildren: Int?

    var testDescription: String { file }

    /// The URL the file is read as: `base_url`, else one named after the file.
    var url: String { baseURL ?? "http://www.example.com/\(file.split(separator: "/").last ?? "sitemap")" }

    /// Reads the file.
    func read() throws -> Sitemap {
        SitemapReader.read(try SitemapManifest.bytes(file), url: url)
    }

    /// The counts to assert where the manifest says `null`, with the reason (`Docs/conformance.md` repeats it).
    ///
    /// - Pages of a `sitemapindex`: none — an index lists sitemaps, never pages.
    /// - Children of a `urlset`, a feed or a text file: none — only an index has children.
    /// - `rss/xmlRss_pubDate.xml`: 7 pages, as upstream's `testRSSPubDate` asserts (the manifest only notes
    ///   the dates, which this reader keeps as written).
    /// - `sitemaps/do-not-visit.txt`: the XXE canary is itself a one-line text file, so read as a sitemap
    ///   it lists its one URL; `SitemapSecurityTests` proves no parse of XML ever reads it.
    var pagesToAssert: Int {
        if let expectedPages { return expectedPages }
        switch file {
        case "crawler-commons/rss/xmlRss_pubDate.xml": return 7
        case "crawler-commons/sitemaps/do-not-visit.txt": return 1
        default: return 0
        }
    }

    /// See ``pagesToAssert``.
    var childrenToAssert: Int { expectedChildren ?? 0 }
}

/// Reads the manifest.
enum SitemapManifest {
    /// The fixture folder, relative to `Fixtures/`.
    static let folder = "conformance/sitemaps"

    /// Every entry, in manifest order; empty when the manifest cannot be read, which the suite's
    /// `corpus` test reports as a failure.
    static let cases: [SitemapCase] = (try? load()) ?? []

    static func load() throws -> [SitemapCase] {
        let data = Data(try Fixtures.bytes("\(folder)/MANIFEST.json"))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = root["entries"] as? [[String: Any]]
        else { throw ManifestError() }
        return try entries.map { entry in
            guard let file = entry["file"] as? String else { throw ManifestError() }
            return SitemapCase(
                file: file, format: entry["format"] as? String ?? "", baseURL: entry["base_url"] as? String,
                expectedPages: entry["expected_page_urls"] as? Int,
                expectedChildren: entry["expected_child_sitemaps"] as? Int)
        }
    }

    /// The bytes of a file of the manifest's folder.
    static func bytes(_ path: String) throws -> [UInt8] {
        try Fixtures.bytes("\(folder)/\(path)")
    }

    struct ManifestError: Error {}
}
