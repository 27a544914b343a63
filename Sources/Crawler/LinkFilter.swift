import Scope
import Store
import Synchronization

/// Turns URLs found on a page, in a sitemap or in a `Location` header into frontier
/// candidates: normalized, checked against the scope (site, patterns, URL length) and the
/// depth limit, with every rejection counted by reason.
struct LinkFilter: Sendable {
    let scope: CrawlScope
    let maxDepth: Int?
    /// What decides the scope (seeds, patterns, URL length, depth), as a short stable text: a sitemap's
    /// entry digest is used only under the scope it was written with.
    var fingerprint = ""
    /// Scope decisions by URL as found: a site's navigation links recur on every page, and each
    /// decision parses and normalizes the URL.
    let decisions = DecisionCache()

    /// Rejections by reason (`scope`, `url-length`, `depth`).
    struct Rejections: Sendable {
        var counts: [SkipReason: Int] = [:]
        mutating func add(_ reason: SkipReason) { counts[reason, default: 0] += 1 }
    }

    /// The candidate for `url`, or `nil` (counted in `rejections`) when it may not be queued.
    /// With `checkingSite` false the URL may be on any site (patterns and length still apply).
    func candidate(
        _ url: String, kind: FrontierKind, depth: Int, source: DiscoverySource, from: String?, redirectHops: Int = 0,
        checkingSite: Bool = true, rejections: inout Rejections
    ) -> FrontierCandidate? {
        // Only links recur (navigation on every page); sitemap and redirect URLs are met once each
        // and would just push the recurring ones out of the memo.
        let decided =
            source == .link && checkingSite
            ? decisions.decision(for: url, in: scope) : Decided(scope.decision(for: url, checkingSite: checkingSite))
        guard let normalized = decided.decision.url, let key = decided.key else {
            if let reason = decided.decision.rejection { rejections.add(reason.counterKey) }
            return nil
        }
        if kind == .page, let maxDepth, depth > maxDepth {
            rejections.add(.depth)
            return nil
        }
        return FrontierCandidate(
            url: normalized.string, key: key, host: normalized.hostKey, kind: kind, depth: depth, source: source,
            discoveredFrom: from, redirectHops: redirectHops)
    }

    /// What becomes of a pending activity web page in this pass.
    enum PendingDecision {
        /// Queued: depth 0, on any site, keyed by the importer's key so the bridge finds it by that key.
        case queue(FrontierCandidate)
        /// Never crawlable (not an `http`/`https` URL): ends at once, as skipped.
        case unusable(UnusablePending)
        /// Left pending: this crawl's patterns or URL length leave it out (the reason in the rejections).
        case wait
    }

    /// Decides a pending activity web page: the site is not checked, the patterns and URL length are.
    func decide(_ pending: PendingURL, rejections: inout Rejections) -> PendingDecision {
        switch scope.decision(for: pending.url, checkingSite: false) {
        case .allowed(let normalized):
            return .queue(
                FrontierCandidate(
                    url: normalized.string, key: pending.key, host: normalized.hostKey, kind: .page, depth: 0,
                    source: .activity))
        case .rejected(let reason):
            switch reason {
            case .unsupportedScheme, .invalidURL:
                return .unusable(UnusablePending(pending: pending, outcome: .invalidURL, detail: "\(reason)"))
            default:
                rejections.add(reason.counterKey)
                return .wait
            }
        }
    }
}

/// A scope decision with the frontier key of an allowed URL, computed once.
struct Decided: Sendable {
    let decision: ScopeDecision
    /// The dedup key when allowed.
    let key: String?

    init(_ decision: ScopeDecision) {
        self.decision = decision
        self.key = decision.url?.frontierKey
    }
}

extension ScopeRejection {
    /// The skip reason a rejection counts under: ``SkipReason/urlLength`` for over-long URLs, else scope.
    var counterKey: SkipReason {
        switch self {
        case .tooLong: .urlLength
        default: .scope
        }
    }
}

/// A bounded memo of scope decisions (with their frontier keys), shared by the page tasks of one crawl.
final class DecisionCache: Sendable {
    /// Emptied when it reaches this many entries: a crawl's recurring links come back at once.
    static let capacity = 4096
    private let entries = Mutex<[String: Decided]>([:])

    /// The decision for `url`, from the memo or from `scope` (then remembered).
    func decision(for url: String, in scope: CrawlScope) -> Decided {
        if let known = entries.withLock({ $0[url] }) { return known }
        let decided = Decided(scope.decision(for: url))
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[url] = decided
        }
        return decided
    }
}
