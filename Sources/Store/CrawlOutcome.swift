/// How a frontier URL's visit ended, or what one request of the fetch log was: stored as ``text`` in
/// `crawl_url.outcome` and `fetch_log.outcome`, where reports and the public-answer rules read it.
package enum CrawlOutcome: Sendable, Hashable, CustomStringConvertible {
    /// A page stored as an indexable item.
    case indexed
    /// A page whose robots rules (meta or `X-Robots-Tag`) forbid indexing.
    case noindex
    /// A page confirmed unchanged (304, or the same content hash): not extracted again.
    case unchanged
    /// A page that answered 404 or 410.
    case gone
    /// A redirect, followed as a URL of its own.
    case redirect
    /// A redirect past the hop limit.
    case redirectLimit
    /// A redirect to a URL outside the crawl's scope.
    case redirectOutOfScope
    /// A response whose content type is not HTML.
    case unsupportedType
    /// A body over the size limit.
    case tooLarge
    /// A sitemap read.
    case sitemap
    /// A sitemap unchanged since its last read (304 or the same bytes), not read again.
    case sitemapUnchanged
    /// A sitemap past the pass's sitemap limits.
    case sitemapLimit
    /// A URL robots.txt disallows; publishing withholds an activity whose page ended so.
    case robotsDisallowed
    /// A URL on a host whose robots.txt could not be read (the host was given up for the pass).
    case robotsUnavailable
    /// A URL on a host whose address the address policy refuses.
    case addressRefused
    /// A pending activity URL that is not a crawlable URL.
    case invalidURL
    /// A donated URL on a host outside every crawl's scope whose apple-app-site-association does not name
    /// the donating app: not fetched, so no app can point the crawler at a site it does not belong to.
    case appNotAssociated
    /// A request for robots.txt (fetch log).
    case robotsFile
    /// A request for apple-app-site-association (fetch log).
    case appSiteAssociationFile
    /// A response with this status and no more specific outcome.
    case httpStatus(Int)
    /// A transient status, retried later.
    case retryHTTPStatus(Int)
    /// A transfer that failed; the kebab-case error kind (`dns-failure`, `connect-timeout`).
    case error(String)
    /// Not decided yet (a fetch-log entry filled in when the response is classified).
    case pending

    /// The stored text: `indexed`, `robots`, `http-404`, `retry.http-503`, `error.dns-failure`….
    package var text: String {
        switch self {
        case .indexed: "indexed"
        case .noindex: "noindex"
        case .unchanged: "unchanged"
        case .gone: "gone"
        case .redirect: "redirect"
        case .redirectLimit: "redirect-limit"
        case .redirectOutOfScope: "redirect-out-of-scope"
        case .unsupportedType: "type"
        case .tooLarge: "size"
        case .sitemap: "sitemap"
        case .sitemapUnchanged: "sitemap-unchanged"
        case .sitemapLimit: "sitemap-limit"
        case .robotsDisallowed, .robotsFile: "robots"
        case .robotsUnavailable: "robots-unavailable"
        case .addressRefused: "address-refused"
        case .invalidURL: "invalid-url"
        case .appNotAssociated: "app-not-associated"
        case .appSiteAssociationFile: "app-site-association"
        case .httpStatus(let status): "http-\(status)"
        case .retryHTTPStatus(let status): "retry.http-\(status)"
        case .error(let kind): "error.\(kind)"
        case .pending: ""
        }
    }

    /// The stored text.
    package var description: String { text }
}

/// Why the crawler did not fetch or did not index a URL: the keys of the `skipped` counts in
/// `crawl --json` (SPEC §6), as ``rawValue``.
package enum SkipReason: String, Sendable, Hashable, CaseIterable {
    /// robots.txt disallows it.
    case robots
    /// The page forbids indexing.
    case noindex
    /// Outside the crawl's scope.
    case scope
    /// Deeper than `--max-depth`.
    case depth
    /// Over the body size limit.
    case size
    /// Not HTML.
    case type
    /// Failed for good (see the `errors` counts).
    case errors
    /// A URL longer than the limit.
    case urlLength = "url-length"
    /// Past the redirect hop limit.
    case redirectLimit = "redirect-limit"
    /// Past the sitemap limits.
    case sitemapLimit = "sitemap-limit"
    /// Sitemaps nested deeper than the sitemap depth limit.
    case sitemapDepth = "sitemap-depth"
    /// Links of a page past the per-page link cap.
    case linksCap = "links-cap"
    /// Its host's robots.txt could not be read.
    case robotsUnavailable = "robots-unavailable"
    /// Its host's address is refused.
    case addressRefused = "address-refused"
    /// Not a crawlable URL.
    case invalidURL = "invalid-url"
    /// A donated URL whose host, outside every crawl's scope, does not associate the donating app.
    case appNotAssociated = "app-not-associated"
}
