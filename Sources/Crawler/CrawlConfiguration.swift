import Fetching
import Renderer

/// How a crawl behaves. The defaults are a polite production crawler's (SPEC §3).
package struct CrawlConfiguration: Sendable {
    /// The start URLs. Empty: only continue the frontier already in the store.
    package var seeds: [String]
    /// The robots.txt product token (`Applebot` by default, with Apple's Googlebot fallback).
    package var productToken: String
    /// The HTTP transfer settings (user agent, timeouts, size limits, address policy).
    package var fetch: FetchConfiguration
    /// Requests in flight across all hosts.
    package var concurrency: Int
    /// Requests in flight to one host.
    package var perHostConcurrency: Int
    /// The minimum time between two requests to one host, in seconds.
    package var delay: Double
    /// The largest `Crawl-delay` honoured, in seconds; longer ones are capped.
    package var maxCrawlDelay: Double
    /// Pages fetched in one pass at most (`nil`: no limit).
    package var maxPages: Int?
    /// Link distance from the seeds at most (`nil`: no limit). Sitemap-listed pages are at depth 1.
    package var maxDepth: Int?
    /// `--include` patterns (see ``URLScope``).
    package var includePatterns: [String]
    /// `--exclude` patterns.
    package var excludePatterns: [String]
    /// URLs longer than this (in bytes) are not queued.
    package var maxURLLength: Int
    /// Attempts per URL for transient failures (timeouts, 5xx, 429) before a final failure.
    package var maxAttempts: Int
    /// The first retry's delay in seconds; each later one doubles, with ±50 % jitter.
    package var retryBaseDelay: Double
    /// The longest wait accepted from a `Retry-After` header, in seconds.
    package var maxRetryAfter: Double
    /// How long a good robots.txt copy is reused, in seconds (at most 24 h).
    package var robotsCacheLifetime: Double
    /// Nesting of sitemap indexes followed at most.
    package var maxSitemapDepth: Int
    /// Sitemap files fetched per host at most.
    package var maxSitemapsPerHost: Int
    /// Body limit for sitemap files (uncompressed), bytes.
    package var maxSitemapBytes: Int
    /// Body limit for apple-app-site-association files, bytes.
    package var maxAppSiteAssociationBytes: Int
    /// Whether apple-app-site-association is also fetched over plain `http` (for loopback
    /// test sites); Apple only ever fetches it over `https`, which is the default.
    package var allowsPlainHTTPAppSiteAssociation: Bool
    /// How long a worker's leases (the URLs it took, its host slots) last without renewal, in seconds;
    /// renewed every third of it while the worker runs. A worker that dies loses its URLs to the
    /// others this long after its last renewal (at once for a worker of the same machine).
    package var leaseDuration: Double {
        didSet { leaseDuration = max(1, leaseDuration) }
    }
    /// How many due URLs of a host a worker takes from the store at a time (with a slot of the host, see
    /// `CrawlLoop+Slots`); at least 1.
    package var urlsPerClaim: Int {
        didSet { urlsPerClaim = max(1, urlsPerClaim) }
    }
    /// Whether a new pass is a refresh pass (`crawl --refresh`): it fetches what is due, the sitemaps and the
    /// URLs it finds that are new to the frontier, instead of everything it reaches (see ``RevisitPolicy``).
    package var refresh: Bool
    /// When each URL is due again.
    package var revisit: RevisitPolicy
    /// Whether pages are rendered in headless Chromium (`crawl --render`; the command's default is `auto`,
    /// a library user's `never`, so nothing starts a browser unasked).
    package var render = RenderMode.never
    /// Pages rendered at once, each in a browser of its own (`--render-concurrency`).
    package var renderConcurrency = 2
    /// How each render is bounded.
    package var renderLimits = RenderLimits()

    /// Creates a configuration with production defaults.
    package init(
        seeds: [String] = [],
        productToken: String = "Applebot",
        fetch: FetchConfiguration = FetchConfiguration(),
        concurrency: Int = 16,
        perHostConcurrency: Int = 2,
        delay: Double = 0.25,
        maxCrawlDelay: Double = 10,
        maxPages: Int? = nil,
        maxDepth: Int? = nil,
        includePatterns: [String] = [],
        excludePatterns: [String] = [],
        maxURLLength: Int = 2048
    ) {
        self.seeds = seeds
        self.productToken = productToken
        self.fetch = fetch
        self.concurrency = max(1, concurrency)
        self.perHostConcurrency = max(1, perHostConcurrency)
        self.delay = max(0, delay)
        self.maxCrawlDelay = max(0, maxCrawlDelay)
        self.maxPages = maxPages
        self.maxDepth = maxDepth
        self.includePatterns = includePatterns
        self.excludePatterns = excludePatterns
        self.maxURLLength = maxURLLength
        self.maxAttempts = 3
        self.retryBaseDelay = 1
        self.maxRetryAfter = 3600
        self.robotsCacheLifetime = 24 * 3600
        self.maxSitemapDepth = 3
        self.maxSitemapsPerHost = 100
        self.maxSitemapBytes = 50 * 1024 * 1024
        self.maxAppSiteAssociationBytes = 128 * 1024
        self.allowsPlainHTTPAppSiteAssociation = false
        self.leaseDuration = 60
        self.urlsPerClaim = 64
        self.refresh = false
        self.revisit = RevisitPolicy()
    }

    /// The delay before retry number `attempt` (1-based): exponential with ±50 % jitter.
    func backoff(attempt: Int) -> Double {
        let base = retryBaseDelay * Double(1 << min(max(attempt - 1, 0), 16))
        return base * Double.random(in: 0.5...1.5)
    }
}
