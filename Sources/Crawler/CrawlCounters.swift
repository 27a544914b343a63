import Store

/// What a crawl pass did, counted as it goes and stored with the pass at every commit,
/// so that a resumed pass reports the whole pass, not only its last stretch.
package struct CrawlCounters: Sendable, Hashable, Codable {
    /// Page requests that got an HTTP response (any status).
    package var pagesFetched = 0
    /// Pages stored as indexable items (new or changed).
    package var pagesIndexed = 0
    /// Pages confirmed unchanged (304 or same content hash): no re-extraction.
    package var pagesUnchanged = 0
    /// Pages whose content differed from the stored copy (a page fetched for the first time is not counted).
    package var pagesChanged = 0
    /// Pages visited in an earlier pass that this pass took up again and ended (fetched, or ended by a rule).
    package var pagesRevisited = 0
    /// Pages that answered 404 or 410 and left the index.
    package var pagesGone = 0
    /// Redirect responses followed (each hop queued as a URL of its own).
    package var redirects = 0
    /// Body bytes received (decoded), all requests.
    package var bytes = 0
    /// Sitemap files read.
    package var sitemapsRead = 0
    /// Sitemap files a refresh pass found unchanged since their last fetch (304, or the same bytes), not read.
    package var sitemapsUnchanged = 0
    /// URLs listed in the sitemaps read.
    package var sitemapURLs = 0
    /// robots.txt requests made (cached copies not counted).
    package var robotsFetched = 0
    /// Retries scheduled after transient failures.
    package var retries = 0
    /// URLs not fetched or not indexed, by reason (a ``SkipReason`` raw value: `robots`, `noindex`, `scope`,
    /// `depth`, `size`, `type`, `errors`, `url-length`, `redirect-limit`…).
    package var skipped: [String: Int] = [:]
    /// Final failures by kind (`dns-failure`, `http-503`, `connect-timeout`…).
    package var errors: [String: Int] = [:]
    /// Seconds spent in earlier stretches of this pass (before a resume).
    package var earlierSeconds = 0.0
    /// What the render rule decided for each HTML page fetched, by ``RenderDecision`` raw value (`rendered`,
    /// `not-needed`, `no-scripts`, `scripts-disallowed`, `failed`); empty with `--render never`.
    package var rendering: [String: Int] = [:]
    /// Requests rendered pages made, by what became of them: `fetched`, `cached` (a script or style fetched
    /// earlier in the pass), `refused` (robots.txt, the address policy, a method or type not fetched).
    package var subresources: [String: Int] = [:]

    /// Creates zeroed counters.
    package init() {}

    /// Adds one to `skipped[reason]`.
    mutating func skip(_ reason: SkipReason, count: Int = 1) {
        guard count > 0 else { return }
        skipped[reason.rawValue, default: 0] += count
    }

    /// Counts every rejection of a link filter as skipped by its reason.
    mutating func skip(_ rejections: LinkFilter.Rejections) {
        for (key, count) in rejections.counts { skip(key, count: count) }
    }

    /// Adds one to `errors[kind]` (and counts the URL as skipped for `errors`).
    mutating func fail(_ kind: String) {
        errors[kind, default: 0] += 1
        skip(.errors)
    }
}

/// The end-of-crawl report (`searchlight crawl --json`).
package struct CrawlSummary: Sendable, Hashable, Codable {
    /// The pass's id in the store.
    package var run: Int64
    /// Whether this invocation resumed an unfinished pass.
    package var resumed: Bool
    /// Whether the pass finished (`false` when stopped early, e.g. by a signal).
    package var finished: Bool
    /// The pass's counters: every worker's that took part, this one's and earlier stretches' included.
    package var counters: CrawlCounters
    /// Wall time the pass has been crawled, resumed stretches included (time when several workers ran
    /// at once counted once).
    package var durationSeconds: Double
    /// URLs still queued (non-zero only when the pass did not finish).
    package var queued: Int
    /// How many `crawl` processes took part in the pass (resumed stretches included).
    package var workers: Int
    /// What this process itself did.
    package var workerCounters: CrawlCounters
    /// For a refresh pass (`crawl --refresh`), what it revisited; `nil` for a full pass.
    package var refresh: RefreshCounts?

    /// Creates a summary.
    package init(
        run: Int64, resumed: Bool, finished: Bool, counters: CrawlCounters, durationSeconds: Double, queued: Int,
        workers: Int = 1, workerCounters: CrawlCounters? = nil
    ) {
        self.run = run
        self.resumed = resumed
        self.finished = finished
        self.counters = counters
        self.durationSeconds = durationSeconds
        self.queued = queued
        self.workers = workers
        self.workerCounters = workerCounters ?? counters
    }
}

/// What a refresh pass revisited (SPEC §3 "Freshness"), for its summary.
package struct RefreshCounts: Sendable, Hashable, Codable {
    /// Pages visited before that this pass took up again: due (their next visit had come, or a sitemap
    /// listed them with a `lastmod` newer than their last visit), or asked for by a new donation. Pages new to
    /// the frontier are not counted.
    package var due: Int
    /// Page requests that got an answer.
    package var fetched: Int
    /// Pages found unchanged (304, or the same content hash).
    package var unchanged: Int
    /// Pages whose content changed.
    package var changed: Int
    /// Pages that answered 404 or 410: they leave the index at the next publish.
    package var gone: Int

    /// The counts of a refresh pass that counted `counters`.
    package init(counters: CrawlCounters) {
        due = counters.pagesRevisited
        fetched = counters.pagesFetched
        unchanged = counters.pagesUnchanged
        changed = counters.pagesChanged
        gone = counters.pagesGone
    }
}

/// A snapshot for a progress line.
package struct CrawlProgress: Sendable, Hashable {
    /// Pages fetched so far in this pass.
    package var pagesDone: Int
    /// URLs queued in the store for this pass (in flight included).
    package var queued: Int
    /// Requests in flight.
    package var inFlight: Int
    /// Pages per second over this invocation.
    package var rate: Double
    /// Final failures by kind.
    package var errors: [String: Int]
    /// URLs skipped by reason.
    package var skipped: [String: Int]
}
