/// What one sitemap file held: the page URLs or child sitemaps it lists, in document order, and every
/// problem met on the way.
///
/// The value of ``SitemapReader/read(_:url:contentType:limits:isKnown:)``. One file only: the crawler fetches the
/// child sitemaps of an index and reads each in turn, bounding depth and count itself.
package struct Sitemap: Sendable {
    /// The kind of file, judged by its content; `nil` when it is empty or not a sitemap at all.
    package var format: SitemapFormat?
    /// The page URLs of a `urlset`, a feed or a text sitemap, in document order (duplicates kept: the
    /// crawler deduplicates); when the reader was told which entries are known, only the others.
    package var pages: [SitemapEntry]
    /// How many page entries were known (``SitemapReader/read(_:url:contentType:limits:isKnown:)``) and so
    /// are only counted here, not listed in ``pages``; 0 when the reader was told of none.
    package var knownPages = 0
    /// The ``SitemapFingerprint`` of every page entry kept, known or not, in document order.
    package var pageFingerprints: [UInt64] = []
    /// The child sitemaps of a `sitemapindex`, in document order.
    package var childSitemaps: [SitemapEntry]
    /// Problems met, in the order found: malformed markup, skipped URLs, limits reached. At most
    /// ``SitemapLimits/maxIssues`` of them, the last one then saying how many more were left out.
    package var issues: [SitemapIssue]
    /// Whether the reader stopped before the end of the file because a limit was reached
    /// (``SitemapLimits/maxURLs`` or ``SitemapLimits/maxUncompressedBytes``): the file lists more than
    /// ``pages`` and ``childSitemaps`` hold.
    package var isTruncated: Bool

    /// How many page entries were kept, known or not.
    package var pageCount: Int { pages.count + knownPages }

    /// A sitemap with the given parts; everything empty by default.
    package init(
        format: SitemapFormat? = nil, pages: [SitemapEntry] = [], childSitemaps: [SitemapEntry] = [],
        issues: [SitemapIssue] = [], isTruncated: Bool = false
    ) {
        self.format = format
        self.pages = pages
        self.childSitemaps = childSitemaps
        self.issues = issues
        self.isTruncated = isTruncated
    }
}

/// The kinds of file read as sitemaps, told apart by content (gzip magic, the first element), never by
/// file name or content type alone.
package enum SitemapFormat: String, Sendable, Hashable, CaseIterable {
    /// `<urlset>` of sitemaps.org: page URLs in `<url><loc>`.
    case urlSet
    /// `<sitemapindex>` of sitemaps.org: child sitemaps in `<sitemap><loc>`.
    case sitemapIndex
    /// A plain UTF-8 text file with one URL per line.
    case text
    /// An RSS 2.0 (`<rss>`) or RSS 1.0 (`<rdf:RDF>`) feed: page URLs in `<item><link>`.
    case rss
    /// An Atom feed (`<feed>`): page URLs in `<entry><link href>`.
    case atom
}

/// One URL a sitemap lists, with its modification date as the file wrote it.
package struct SitemapEntry: Sendable, Hashable {
    /// An absolute `http` or `https` URL, exactly as written once XML entities are decoded and surrounding
    /// white space is trimmed; at most ``SitemapLimits/maxURLLength`` UTF-8 bytes.
    package var url: String
    /// `<lastmod>` (sitemaps), `<pubDate>` (RSS) or `<updated>` (Atom), trimmed but not parsed: W3C
    /// datetime or RFC 822 as the file has it; `nil` when absent or empty.
    package var lastModified: String?

    /// An entry for `url`, modified at `lastModified` if known.
    package init(url: String, lastModified: String? = nil) {
        self.url = url
        self.lastModified = lastModified
    }
}

/// One problem met while reading a sitemap, located by line where one is known.
package struct SitemapIssue: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is.
    package var kind: Kind
    /// A human-readable explanation, naming the offending value where there is one.
    package var message: String
    /// The 1-based line of the (uncompressed) file the problem is on; `nil` when it concerns the whole file.
    /// In XML past line 65,535 this is where libxml2's parser stood, which may be a few lines further on.
    package var line: Int?

    /// An issue of `kind` at `line`.
    package init(_ kind: Kind, _ message: String, line: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
    }

    /// `line N: message`, or the message alone.
    package var description: String {
        line.map { "line \($0): \(message)" } ?? message
    }

    /// An open set of issue kinds (new ones may be added), compared by name.
    package struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The input holds no content.
        package static let emptyInput = Kind(rawValue: "emptyInput")
        /// The content is neither a sitemap, a feed nor a text list of URLs (HTML, binary data, …).
        package static let unknownFormat = Kind(rawValue: "unknownFormat")
        /// The XML is not well-formed or not valid in encoding; libxml2's message, with its line.
        package static let malformedXML = Kind(rawValue: "malformedXML")
        /// The root element is not in the namespace its format defines; it is read anyway.
        package static let unexpectedNamespace = Kind(rawValue: "unexpectedNamespace")
        /// An entity reference was left unexpanded: entities are never substituted, external ones never loaded.
        package static let entityNotExpanded = Kind(rawValue: "entityNotExpanded")
        /// An entry without any URL (`<url>` without `<loc>`, an RSS item without `<link>`).
        package static let missingURL = Kind(rawValue: "missingURL")
        /// A URL that is not an absolute `http`/`https` URL; skipped.
        package static let invalidURL = Kind(rawValue: "invalidURL")
        /// A URL longer than ``SitemapLimits/maxURLLength``; skipped.
        package static let urlTooLong = Kind(rawValue: "urlTooLong")
        /// A line of a text sitemap that is not UTF-8; skipped.
        package static let invalidEncoding = Kind(rawValue: "invalidEncoding")
        /// More URLs than ``SitemapLimits/maxURLs``: the rest is not read.
        package static let tooManyURLs = Kind(rawValue: "tooManyURLs")
        /// More than ``SitemapLimits/maxUncompressedBytes`` once decompressed: the rest is not read.
        package static let tooLarge = Kind(rawValue: "tooLarge")
        /// The gzip data is corrupt or cut short; what inflated before the fault is kept.
        package static let compression = Kind(rawValue: "compression")
        /// More issues than ``SitemapLimits/maxIssues``: the rest are only counted.
        package static let tooManyIssues = Kind(rawValue: "tooManyIssues")
    }
}
