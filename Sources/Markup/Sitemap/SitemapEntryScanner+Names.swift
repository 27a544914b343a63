import Foundation

extension SitemapEntryScanner {
    /// An element's local name, among those the formats read: the roots, the entries and their fields.
    /// XML names are case-sensitive, so `<URL>` or `<LOC>` is ``other``.
    enum Name: String, CaseIterable {
        case urlset, sitemapindex, feed, rss, rdf = "RDF"
        case url, sitemap, item, entry
        case loc, lastmod, link, pubDate, updated, published, guid
        /// Any other name.
        case other = ""

        /// The name spelled by `bytes` (UTF-8, as the parser hands it over), read without making a string:
        /// only the names of its length are compared.
        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self = .other
            guard let base = bytes.baseAddress, bytes.count < Self.byLength.count else { return }
            for (spelling, name) in Self.byLength[bytes.count]
            where spelling.withUnsafeBufferPointer({ memcmp($0.baseAddress!, base, bytes.count) == 0 }) {
                self = name
                return
            }
        }

        /// The names but ``other``, with their UTF-8, at the index of their length.
        private static let byLength: [[(utf8: [UInt8], name: Name)]] = {
            var table = [[(utf8: [UInt8], name: Name)]](repeating: [], count: 16)
            for name in allCases where name != .other {
                table[name.rawValue.utf8.count].append((Array(name.rawValue.utf8), name))
            }
            return table
        }()
    }
}
