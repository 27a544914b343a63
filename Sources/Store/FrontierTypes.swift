/// What a frontier URL is fetched for.
package enum FrontierKind: String, Sendable, Hashable, Codable {
    /// A web page: extracted, indexed when allowed, its links followed.
    case page
    /// A sitemap file (urlset, index, text, RSS or Atom): its URLs join the frontier.
    case sitemap
}

/// How a frontier URL was found; stored as its raw value in `crawl_url.source`.
package enum DiscoverySource: String, Sendable, Hashable, CaseIterable {
    /// A seed of the crawl.
    case seed
    /// A link on a crawled page.
    case link
    /// An entry of a sitemap (or a sitemap listed in one).
    case sitemap
    /// A sitemap named by robots.txt.
    case robots
    /// The target of a redirect.
    case redirect
    /// A pending activity web page (a donated `webpageURL` waiting for verification).
    case activity
    /// A redirect target reached from a pending activity web page.
    case activityRedirect = "activity-redirect"

    /// The source a stored `crawl_url.source` names; a value this version does not write reads as ``link``,
    /// the source without special handling.
    package init(stored: String) {
        self = DiscoverySource(rawValue: stored) ?? .link
    }

    /// Whether the URL comes from an app's donation rather than from the web.
    package var isActivity: Bool { self == .activity || self == .activityRedirect }
}

/// A URL the crawler found and wants in the frontier.
package struct FrontierCandidate: Sendable, Hashable {
    /// The normalized URL, fetched when this candidate is the first of its ``key``.
    package var url: String
    /// The dedup key (``key(for:)``): candidates with the same key are one frontier entry, fetched
    /// once, under the URL first queued for it.
    package var key: String
    /// The host key (`scheme://host:port`) its politeness is counted under.
    package var host: String
    /// Page or sitemap.
    package var kind: FrontierKind
    /// Link distance from a seed (seeds 0; pages listed in a sitemap 1).
    package var depth: Int
    /// How it was found.
    package var source: DiscoverySource
    /// The URL it was found on, if any.
    package var discoveredFrom: String?
    /// Redirect hops that led here (0 unless `source` is `redirect`).
    package var redirectHops: Int
    /// The sitemap's `lastmod` for it (seconds since 1970), when a sitemap listed it with one: newer than
    /// its last visit, it makes the URL due in a refresh pass.
    package var sitemapLastModified: Double?

    /// Creates a candidate; `key` defaults to ``key(for:)`` of `url`.
    package init(
        url: String, key: String? = nil, host: String, kind: FrontierKind = .page, depth: Int, source: DiscoverySource,
        discoveredFrom: String? = nil, redirectHops: Int = 0, sitemapLastModified: Double? = nil
    ) {
        self.url = url
        self.key = key ?? Self.key(for: url)
        self.host = host
        self.kind = kind
        self.depth = depth
        self.source = source
        self.discoveredFrom = discoveredFrom
        self.redirectHops = redirectHops
        self.sitemapLastModified = sitemapLastModified
    }
}

/// A frontier URL due in the current pass, with what a conditional re-fetch needs.
package struct FrontierURL: Sendable, Hashable {
    /// The row id.
    package var id: Int64
    /// The normalized URL.
    package var url: String
    /// The host key.
    package var host: String
    /// Page or sitemap.
    package var kind: FrontierKind
    /// Link distance from a seed.
    package var depth: Int
    /// Redirect hops that led here.
    package var redirectHops: Int
    /// How it was found.
    package var source: DiscoverySource
    /// Failed attempts so far in this pass.
    package var attempts: Int
    /// The stored copy's `ETag`, for `If-None-Match`.
    package var etag: String?
    /// The stored copy's `Last-Modified`, for `If-Modified-Since`.
    package var lastModified: String?
    /// The stored copy's content hash.
    package var contentHash: String?
    /// The stored page's in-scope links (for a 304), newline-separated.
    package var storedLinks: String?
    /// Whether the stored page was indexable.
    package var wasIndexable: Bool?
    /// The revisit interval its last visit set (seconds), `nil` before its first.
    package var revisitInterval: Double? = nil
    /// For a donated page (source `activity`): the bundle identifiers of the apps that donated it, which its
    /// host must associate before it is fetched from outside every crawl's scope.
    package var donatingApps: [String] = []
}

/// How a frontier URL ended in this pass.
package enum FrontierState: String, Sendable, Hashable {
    /// Fetched and handled (any HTTP status).
    case done
    /// Given up after its retries.
    case failed
    /// Not fetched, by rule (robots, scope at a redirect, depth).
    case skipped
    /// Back in the queue for a retry at `notBefore`.
    case queued
}

/// A pending activity web page (`pending_url`): a donated `webpageURL` above the engagement
/// threshold that waits for the crawler to verify it.
package struct PendingURL: Sendable, Hashable {
    /// Its canonical key, as the importer wrote it.
    package var key: String
    /// The URL as donated.
    package var url: String

    /// Creates a value.
    package init(key: String, url: String) {
        self.key = key
        self.url = url
    }
}
