/// A crawl pass: new, or the unfinished one a rerun (or another worker) continues.
package struct CrawlRunInfo: Sendable, Hashable {
    /// The pass's id.
    package var id: Int64
    /// Whether an unfinished pass was joined rather than a new one started.
    package var isResumed: Bool
    /// When the pass started (seconds since 1970).
    package var startedAt: Double
    /// Counters a store written before workers had rows of their own kept with the pass (`{}` otherwise).
    package var countersJSON: String
    /// The seeds the pass was started with (a resumed pass keeps its original scope).
    package var seeds: [String]
    /// For a refresh pass, the time it started from: URLs due by then were queued at its start, and a URL
    /// already in the frontier joins it only when due (or listed with a newer sitemap `lastmod`); `nil` for
    /// a full pass.
    package var dueBefore: Double? = nil
    /// The pages a new refresh pass queued at its start as due (0 for a full pass and a joined one).
    package var due = 0
}

/// A host with URLs queued in a pass, as a worker sees it.
package struct QueuedHost: Sendable, Hashable {
    /// The host key.
    package var host: String
    /// The earliest time one of its URLs not taken by this worker is free and due: its `not_before`, or
    /// when another worker's lease on it runs out.
    package var due: Double
    /// Whether another worker holds leases on some of its URLs (whose results may queue more).
    package var leasedByOthers: Bool
}
