/// Whether a URL is in a ``CrawlScope``: the normalized URL to crawl, or why not.
package enum ScopeDecision: Hashable, Sendable {
    /// In scope; crawl and key it by this normalized URL.
    case allowed(CrawlURL)
    /// Out of scope.
    case rejected(ScopeRejection)

    /// Whether the URL is in scope.
    package var isAllowed: Bool {
        if case .allowed = self { return true }
        return false
    }

    /// The normalized URL when in scope.
    package var url: CrawlURL? {
        if case .allowed(let url) = self { return url }
        return nil
    }

    /// The reason when out of scope.
    package var rejection: ScopeRejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }
}

/// Why a URL is out of scope, in the order ``CrawlScope/decision(for:)`` checks.
package enum ScopeRejection: Hashable, Sendable, CustomStringConvertible {
    /// An absolute URL with a scheme other than `http` or `https` (the scheme, lowercased; empty if unreadable).
    case unsupportedScheme(String)
    /// Longer than the maximum URL length, as found or once normalized (the offending length, in bytes).
    case tooLong(length: Int)
    /// Not an absolute URL with a usable host (libcurl's or the host check's reason).
    case invalidURL(reason: String)
    /// On a site the seeds do not cover (the normalized host).
    case otherSite(host: String)
    /// Matched an exclude pattern (the pattern as given).
    case excluded(pattern: String)
    /// Include patterns were given and none matched.
    case notIncluded

    /// A stable machine key for counts in JSON summaries, e.g. `scope.other-site`.
    package var key: String {
        switch self {
        case .unsupportedScheme: "scope.unsupported-scheme"
        case .tooLong: "scope.too-long"
        case .invalidURL: "scope.invalid-url"
        case .otherSite: "scope.other-site"
        case .excluded: "scope.excluded"
        case .notIncluded: "scope.not-included"
        }
    }

    /// A short readable reason.
    package var description: String {
        switch self {
        case .unsupportedScheme(let scheme): "unsupported scheme '\(scheme)' (only http and https are crawled)"
        case .tooLong(let length): "URL too long (\(length) bytes)"
        case .invalidURL(let reason): "invalid URL: \(reason)"
        case .otherSite(let host): "other site: \(host)"
        case .excluded(let pattern): "excluded by '\(pattern)'"
        case .notIncluded: "matches no include pattern"
        }
    }
}
