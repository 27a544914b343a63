import Scope
import Store
import Synchronization

/// Turns URLs found on a page, in a sitemap or in a `Location` header into frontier
/// candidates: normalized, checked against the scope (site, patterns, URL length) and the
/// depth limit, with every rejection counted by reason.
struct LinkFilter: Sendable {
    let scope: CrawlScope
    let maxDepth: Int?
    /// Scope decisions by URL as found: a site's navigation links recur on every page, and each
    /// decision parses and normalizes the URL.
    let decisions = DecisionCache()

    /// Rejections by counter key (`scope`, `url-length`, `depth`).
    struct Rejections: Sendable {
        var counts: [String: Int] = [:]
        mutating func add(_ key: String) { counts[key, default: 0] += 1 }
    }

    /// The candidate for `url`, or `nil` (counted in `rejections`) when it may not be queued.
    func candidate(
        _ url: String, kind: FrontierKind, depth: Int, source: String, from: String?, redirectHops: Int = 0,
        rejections: inout Rejections
    ) -> FrontierCandidate? {
        let normalized: CrawlURL
        // Only links recur (navigation on every page); sitemap and redirect URLs are met once each
        // and would just push the recurring ones out of the memo.
        let decision = source == "link" ? decisions.decision(for: url, in: scope) : scope.decision(for: url)
        switch decision {
        case .allowed(let allowed):
            normalized = allowed
        case .rejected(let reason):
            rejections.add(reason.counterKey)
            return nil
        }
        if kind == .page, let maxDepth, depth > maxDepth {
            rejections.add("depth")
            return nil
        }
        return FrontierCandidate(
            url: normalized.string, host: normalized.hostKey, kind: kind, depth: depth, source: source,
            discoveredFrom: from, redirectHops: redirectHops)
    }
}

extension ScopeRejection {
    /// The summary counter a rejection adds to: `url-length` for over-long URLs, else `scope`.
    var counterKey: String {
        switch self {
        case .tooLong: "url-length"
        default: "scope"
        }
    }
}

/// A bounded memo of scope decisions, shared by the page tasks of one crawl.
final class DecisionCache: Sendable {
    /// Emptied when it reaches this many entries: a crawl's recurring links come back at once.
    static let capacity = 4096
    private let entries = Mutex<[String: ScopeDecision]>([:])

    /// The decision for `url`, from the memo or from `scope` (then remembered).
    func decision(for url: String, in scope: CrawlScope) -> ScopeDecision {
        if let known = entries.withLock({ $0[url] }) { return known }
        let decision = scope.decision(for: url)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[url] = decision
        }
        return decision
    }
}
