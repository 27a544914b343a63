/// Everything the crawler learned since its last commit, written in one transaction so
/// that a crash leaves either all of it or none of it: a URL is `done` exactly when its
/// page, its links and its log line are stored.
package struct CrawlBatch: Sendable {
    /// The end (or retry) of frontier URLs.
    package var completions: [Completion] = []
    /// Pages fetched with a body (new or changed content), replacing the stored page.
    package var pages: [StoredPage] = []
    /// Pages confirmed unchanged (304 or the same content hash): only their fetch time moves.
    package var unchangedPages: [String] = []
    /// Pages that are gone (404, 410): kept for deduplication, marked gone and not indexable.
    package var gonePages: [GonePage] = []
    /// URLs found, to add to (or requeue in) the frontier.
    package var candidates: [FrontierCandidate] = []
    /// Redirects seen.
    package var redirects: [StoredRedirect] = []
    /// One line per HTTP request made.
    package var fetchLog: [FetchLogEntry] = []
    /// Per-host files fetched (robots.txt, apple-app-site-association).
    package var hostFiles: [HostFile] = []
    /// Pending activity URLs that are not crawlable URLs (e.g. not `http`/`https`).
    package var unusablePending: [UnusablePending] = []
    /// The worker's counters as JSON, stored with its row in the pass so a resumed pass keeps counting.
    package var countersJSON: String?
    /// Host leases (named `slot:N`, `robots.txt`, `apple-app-site-association`) the worker gives back.
    package var releasedHostLeases: [HostLeaseName] = []
    /// Frontier URLs (row ids) the worker took and gives back unfetched: their leases end and they are due
    /// for any worker again. Only the worker's own leases end.
    package var releasedURLs: [Int64] = []
    /// Failed robots.txt attempts, shared with the other workers of the pass.
    package var robotsStates: [HostRobotsState] = []
    /// Hosts that asked for a pause (`Retry-After`): no request to them starts before the time given.
    package var hostPauses: [HostPause] = []

    /// Creates an empty batch.
    package init() {}

    /// Whether there is nothing to write.
    package var isEmpty: Bool {
        completions.isEmpty && pages.isEmpty && unchangedPages.isEmpty && gonePages.isEmpty && candidates.isEmpty
            && redirects.isEmpty && fetchLog.isEmpty && hostFiles.isEmpty && unusablePending.isEmpty
            && countersJSON == nil && releasedHostLeases.isEmpty && releasedURLs.isEmpty && robotsStates.isEmpty
            && hostPauses.isEmpty
    }

    /// The end of one frontier URL in this pass.
    package struct Completion: Sendable {
        /// The frontier row.
        package var id: Int64
        /// Done, failed, skipped, or queued again for a retry.
        package var state: FrontierState
        /// What happened.
        package var outcome: CrawlOutcome
        /// The HTTP status, when a response arrived.
        package var httpStatus: Int?
        /// A human-readable detail (the error message, the robots rule).
        package var detail: String?
        /// Validators and hash of the content, for the next conditional request.
        package var etag: String?
        /// The `Last-Modified` header, when it may serve as a validator.
        package var lastModified: String?
        /// Whether ``etag`` and ``lastModified`` replace the stored validators even where they are `nil` (a full
        /// response: only its own validators describe the content stored now); otherwise a `nil` keeps the
        /// stored one (a 304, a failure).
        package var validatorsReplaced = false
        /// The content hash.
        package var contentHash: String?
        /// Attempts made in this pass.
        package var attempts: Int
        /// For `queued`: not before this time (seconds since 1970).
        package var notBefore: Double
        /// When it was fetched (seconds since 1970), if it was.
        package var fetchedAt: Double?
        /// When it is due again (seconds since 1970); `nil` keeps the stored time.
        package var nextVisitAt: Double?
        /// The revisit interval that set ``nextVisitAt`` (seconds); `nil` keeps the stored one.
        package var revisitInterval: Double?
        /// When the visit that set ``nextVisitAt`` ended it, on the revisit clock; `nil` keeps the stored time.
        package var visitedAt: Double?

        /// Creates a completion.
        package init(
            id: Int64, state: FrontierState, outcome: CrawlOutcome, httpStatus: Int? = nil, detail: String? = nil,
            etag: String? = nil, lastModified: String? = nil, contentHash: String? = nil, attempts: Int = 0,
            notBefore: Double = 0, fetchedAt: Double? = nil
        ) {
            self.id = id
            self.state = state
            self.outcome = outcome
            self.httpStatus = httpStatus
            self.detail = detail
            self.etag = etag
            self.lastModified = lastModified
            self.contentHash = contentHash
            self.attempts = attempts
            self.notBefore = notBefore
            self.fetchedAt = fetchedAt
        }

        /// Sets the validators of a full response, replacing the stored ones: a validator it lacks is dropped.
        package mutating func replacesValidators(etag: String?, lastModified: String?) {
            self.etag = etag
            self.lastModified = lastModified
            validatorsReplaced = true
        }
    }
}

/// A fetched page as stored.
package struct StoredPage: Sendable, Hashable {
    /// The normalized URL (frontier key).
    package var url: String
    /// The URL the content came from (after redirects).
    package var finalURL: String
    /// `rel=canonical`, resolved, if declared.
    package var canonicalURL: String?
    /// The HTTP status.
    package var httpStatus: Int
    /// The `Content-Type` header.
    package var contentType: String?
    /// Whether robots rules let it be indexed.
    package var isIndexable: Bool
    /// Why not, e.g. `noindex`, `not-html`.
    package var notIndexedReason: String?
    /// The item's title (`og:title`, else `<title>`, else `twitter:title`): publishing withholds a page without one.
    package var title: String?
    /// The searchable item (SPEC §6 JSON), when indexable.
    package var itemJSON: String?
    /// In-scope links, newline-separated, followed again on a 304.
    package var links: String
    /// The content hash.
    package var contentHash: String?
    /// Fetch time, seconds since 1970.
    package var fetchedAt: Double
    /// Whether the item, title and links come from the page rendered in a browser (`crawl --render`), not
    /// from the served HTML.
    package var isRendered: Bool

    /// Creates a record.
    package init(
        url: String, finalURL: String, canonicalURL: String?, httpStatus: Int, contentType: String?,
        isIndexable: Bool, notIndexedReason: String?, title: String?, itemJSON: String?, links: String,
        contentHash: String?, fetchedAt: Double, isRendered: Bool = false
    ) {
        self.url = url
        self.finalURL = finalURL
        self.canonicalURL = canonicalURL
        self.httpStatus = httpStatus
        self.contentType = contentType
        self.isIndexable = isIndexable
        self.notIndexedReason = notIndexedReason
        self.title = title
        self.itemJSON = itemJSON
        self.links = links
        self.contentHash = contentHash
        self.fetchedAt = fetchedAt
        self.isRendered = isRendered
    }
}

/// A page that answered 404 or 410.
package struct GonePage: Sendable, Hashable {
    /// The normalized URL.
    package var url: String
    /// 404 or 410.
    package var httpStatus: Int
    /// When, seconds since 1970.
    package var fetchedAt: Double

    /// Creates a record.
    package init(url: String, httpStatus: Int, fetchedAt: Double) {
        self.url = url
        self.httpStatus = httpStatus
        self.fetchedAt = fetchedAt
    }
}

/// One redirect: `from` answered `status` with a `Location` leading to `to`.
package struct StoredRedirect: Sendable, Hashable {
    /// The normalized source URL.
    package var from: String
    /// The normalized target URL.
    package var to: String
    /// The 3xx status.
    package var httpStatus: Int

    /// Creates a record.
    package init(from: String, to: String, httpStatus: Int) {
        self.from = from
        self.to = to
        self.httpStatus = httpStatus
    }
}

/// One HTTP request in the fetch log.
package struct FetchLogEntry: Sendable, Hashable {
    /// The URL requested.
    package var url: String
    /// When, seconds since 1970.
    package var at: Double
    /// The status, when a response arrived.
    package var httpStatus: Int?
    /// Body bytes received (decoded).
    package var bytes: Int
    /// Duration in seconds.
    package var seconds: Double
    /// What the request was or how it ended.
    package var outcome: CrawlOutcome
    /// The error message or other detail.
    package var detail: String?

    /// Creates an entry.
    package init(
        url: String, at: Double, httpStatus: Int?, bytes: Int, seconds: Double, outcome: CrawlOutcome, detail: String?
    ) {
        self.url = url
        self.at = at
        self.httpStatus = httpStatus
        self.bytes = bytes
        self.seconds = seconds
        self.outcome = outcome
        self.detail = detail
    }
}

/// A per-host file and when it was fetched.
package struct HostFile: Sendable, Hashable {
    /// The host key.
    package var host: String
    /// `robots.txt` or `apple-app-site-association`.
    package var name: String
    /// Fetch time, seconds since 1970.
    package var fetchedAt: Double
    /// The status of the final response, if any.
    package var httpStatus: Int?
    /// The body, when one was kept.
    package var body: [UInt8]?
    /// What was decided (`rules`, `allow-all`) or went wrong.
    package var detail: String?

    /// Creates a record.
    package init(host: String, name: String, fetchedAt: Double, httpStatus: Int?, body: [UInt8]?, detail: String?) {
        self.host = host
        self.name = name
        self.fetchedAt = fetchedAt
        self.httpStatus = httpStatus
        self.body = body
        self.detail = detail
    }
}

/// A pending activity URL the crawler can never fetch: recorded as a skipped frontier entry under
/// its key, with the reason, and removed from `pending_url`.
package struct UnusablePending: Sendable, Hashable {
    /// The pending row.
    package var pending: PendingURL
    /// Why it can never be fetched.
    package var outcome: CrawlOutcome
    /// Why, readable.
    package var detail: String

    /// Creates a value.
    package init(pending: PendingURL, outcome: CrawlOutcome, detail: String) {
        self.pending = pending
        self.outcome = outcome
        self.detail = detail
    }
}

/// One of a host's leases: a request slot (`slot:N`) or a once-per-pass fetch.
package struct HostLeaseName: Sendable, Hashable {
    /// The host key.
    package var host: String
    /// `slot:N`, `robots.txt` or `apple-app-site-association`.
    package var name: String

    /// Creates a value.
    package init(host: String, name: String) {
        self.host = host
        self.name = name
    }

    /// Request slot number `slot` of `host`.
    package static func slot(_ slot: Int, of host: String) -> HostLeaseName {
        HostLeaseName(host: host, name: "slot:\(slot)")
    }
}

/// A pause a host asked for (`Retry-After` on a 429 or 503).
package struct HostPause: Sendable, Hashable {
    /// The host key.
    package var host: String
    /// No request to it starts before this time (seconds since 1970).
    package var until: Double

    /// Creates a value.
    package init(host: String, until: Double) {
        self.host = host
        self.until = until
    }
}
