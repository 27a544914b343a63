import Foundation
import Store

/// When a URL is visited again (SPEC §3 "Freshness"): each visit sets the next from what it found.
///
/// - The first visit waits ``firstInterval`` (clamped to the bounds).
/// - A visit that found the page unchanged (304, or the same content hash) doubles the interval, up to
///   ``maximumInterval``; one that found it changed halves it, down to ``minimumInterval``.
/// - A response's own freshness lifetime (`Cache-Control: s-maxage`/`max-age`, else `Expires`) may bring the
///   next visit sooner, never sooner than ``minimumInterval``.
/// - A page's published item expires ``itemLifetime`` after its last fetch (`publish --expiry-days`): the next
///   visit comes by nine tenths of it, so an item, an activity's page included, is seen again before it would
///   expire.
/// - A visit that failed for good comes back after ``minimumInterval``, the interval kept.
package struct RevisitPolicy: Sendable {
    /// The shortest wait, seconds (`--min-revisit`, default 1 hour).
    package var minimumInterval: Double
    /// The longest wait, seconds (`--max-revisit`, default 30 days).
    package var maximumInterval: Double
    /// The first wait after a first visit, seconds (1 day, within the bounds).
    package var firstInterval: Double
    /// How long a published item stays public after its page's last fetch, seconds; `nil`: no cap.
    package var itemLifetime: Double?
    /// The time a pass starts from and visits are scheduled from (seconds since 1970): the wall clock, or
    /// a test's.
    package var now: @Sendable () -> Double

    /// The defaults: 1 hour to 30 days, a first wait of 1 day, no item lifetime, the wall clock.
    package init(
        minimumInterval: Double = 3600, maximumInterval: Double = 30 * 86_400, firstInterval: Double = 86_400,
        itemLifetime: Double? = nil, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.minimumInterval = max(1, minimumInterval)
        self.maximumInterval = max(self.minimumInterval, maximumInterval)
        self.firstInterval = firstInterval
        self.itemLifetime = itemLifetime
        self.now = now
    }

    /// What a visit found, for the interval.
    package enum Finding: Sendable, Hashable {
        /// The URL's first visit.
        case first
        /// The same content (or answer) as last time.
        case unchanged
        /// Different content (or a page that disappeared).
        case changed
        /// A final failure (network, server errors after the retries).
        case failed
    }

    /// The interval and the time of the next visit after a visit at `time` that found `finding`, the last
    /// interval being `previous`, the response fresh for `lifetime` seconds if it said so.
    package func schedule(
        after finding: Finding, previous: Double?, at time: Double, lifetime: Double? = nil
    ) -> (interval: Double, nextVisitAt: Double) {
        let first = clamped(firstInterval)
        let last = previous.map(clamped) ?? first
        let interval: Double
        var wait: Double
        switch finding {
        case .first:
            interval = first
            wait = interval
        case .unchanged:
            interval = clamped(last * 2)
            wait = interval
        case .changed:
            interval = clamped(last / 2)
            wait = interval
        case .failed:
            interval = last
            wait = minimumInterval
        }
        if let lifetime { wait = min(wait, max(minimumInterval, lifetime)) }
        if let itemLifetime { wait = min(wait, max(minimumInterval, itemLifetime * 0.9)) }
        return (interval, time + wait)
    }

    private func clamped(_ seconds: Double) -> Double {
        min(maximumInterval, max(minimumInterval, seconds))
    }
}

extension RevisitPolicy {
    /// Sets `completion`'s next visit, from now, after a visit of `url` that found `finding`; a visit of a
    /// URL never visited before is its first (unless it failed), whatever else it found.
    func scheduleNextVisit(
        of url: FrontierURL, after finding: Finding, lifetime: Double? = nil, in completion: inout CrawlBatch.Completion
    ) {
        let time = now()
        let next = schedule(
            after: url.wasVisited || finding == .failed ? finding : .first, previous: url.revisitInterval, at: time,
            lifetime: lifetime)
        completion.visitedAt = time
        completion.revisitInterval = next.interval
        completion.nextVisitAt = next.nextVisitAt
    }
}

extension FrontierURL {
    /// Whether an earlier visit ended this URL (it has a revisit interval, or stored content).
    var wasVisited: Bool { revisitInterval != nil || contentHash != nil }
}
