import Scope
import Store

/// Turns URLs found on a page, in a sitemap or in a `Location` header into frontier
/// candidates: normalized, checked against the scope (site, patterns, URL length) and the
/// depth limit, with every rejection counted by reason.
struct LinkFilter: Sendable {
    let scope: CrawlScope
    let maxDepth: Int?

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
        switch scope.decision(for: url) {
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
