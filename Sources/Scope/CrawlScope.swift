/// Which URLs a crawl may fetch (SPEC §3 "Scope" and the maximum URL length of "Bounded resources").
///
/// By default a crawl stays on its seeds' sites: a URL is in scope when its host has the same
/// registrable domain as a seed's host (`https://www.example.co.uk/` as a seed admits
/// `https://shop.example.co.uk/…`, not `https://example.com/…`; a seed on `alice.github.io` does not
/// admit `bob.github.io`). A seed whose host has no registrable domain — an IP address,
/// `localhost` or another single-label name, a host that is itself a public suffix — admits exactly
/// that host, on any port and either scheme.
///
/// On top of the site rule, exclude patterns remove URLs and include patterns, when given, are
/// required: a URL must match at least one include pattern and no exclude pattern. Exclude wins.
///
/// A value: build it once from the command line options and share it between tasks.
/// Maximum depth and page counts are the crawler's counters and are not decided here.
package struct CrawlScope: Sendable {
    /// The accepted values for the maximum URL length, in bytes.
    package static let maximumURLLengthRange = 32...CrawlURL.maximumInputLength

    /// The sites in scope: the seeds' registrable domains, or their hosts when they have none.
    package let sites: Set<String>
    /// Include patterns; when not empty, a URL must match one of them.
    package let include: [URLPattern]
    /// Exclude patterns; a URL matching any of them is out of scope.
    package let exclude: [URLPattern]
    /// The longest URL crawled, in bytes, both as found and once normalized.
    package let maxURLLength: Int

    /// Builds the scope from seed URLs and `--include` / `--exclude` patterns (see ``URLPattern``).
    ///
    /// - Throws: ``ScopeError`` for no seeds, a seed that is not an absolute `http`/`https` URL, an
    ///   invalid pattern, or a maximum URL length outside ``maximumURLLengthRange``; the error
    ///   names the offending value.
    package init(
        seeds: [String],
        include: [String] = [],
        exclude: [String] = [],
        maxURLLength: Int = 2048
    ) throws(ScopeError) {
        guard Self.maximumURLLengthRange.contains(maxURLLength) else {
            throw .invalidMaximumURLLength(maxURLLength)
        }
        guard !seeds.isEmpty else { throw .noSeeds }
        var sites = Set<String>()
        for seed in seeds {
            do {
                let url = try CrawlURL(seed)
                sites.insert(RegistrableDomain.siteKey(normalizedHost: url.host))
            } catch {
                throw .invalidSeed(seed, reason: error)
            }
        }
        self.sites = sites
        self.include = try Self.patterns(include)
        self.exclude = try Self.patterns(exclude)
        self.maxURLLength = maxURLLength
    }

    /// A scope with no site in it: every URL is out of scope by site, while the patterns and the
    /// URL length still apply to ``decision(for:checkingSite:)`` with `checkingSite: false`. For a
    /// crawl without seeds (only pending activity web pages, whose links are not followed).
    ///
    /// - Throws: ``ScopeError`` for an invalid pattern or maximum URL length.
    package static func withoutSites(
        include: [String] = [], exclude: [String] = [], maxURLLength: Int = 2048
    ) throws(ScopeError) -> CrawlScope {
        guard maximumURLLengthRange.contains(maxURLLength) else { throw .invalidMaximumURLLength(maxURLLength) }
        return CrawlScope(
            sites: [], include: try patterns(include), exclude: try patterns(exclude), maxURLLength: maxURLLength)
    }

    private init(sites: Set<String>, include: [URLPattern], exclude: [URLPattern], maxURLLength: Int) {
        self.sites = sites
        self.include = include
        self.exclude = exclude
        self.maxURLLength = maxURLLength
    }

    /// Decides whether the absolute URL `url` is in scope, and normalizes it when it is.
    ///
    /// Checks, in order: length as found, parsing (scheme, then validity), length once normalized,
    /// site, exclude patterns, include patterns. The first failing check is the reason.
    /// Relative links must be resolved against their page before they are decided.
    package func decision(for url: String) -> ScopeDecision {
        decision(for: url, checkingSite: true)
    }

    /// ``decision(for:)``, with the site check left out when `checkingSite` is false: for URLs the
    /// crawl fetches wherever they are (pending activity web pages and their redirects), which
    /// still obey the patterns and the URL length.
    package func decision(for url: String, checkingSite: Bool) -> ScopeDecision {
        let length = url.utf8.count
        guard length <= maxURLLength else { return .rejected(.tooLong(length: length)) }
        let parsed: CrawlURL
        do {
            parsed = try CrawlURL(url)
        } catch {
            switch error {
            case .unsupportedScheme(let scheme): return .rejected(.unsupportedScheme(scheme))
            case .tooLong(let length): return .rejected(.tooLong(length: length))
            case .invalid(let reason): return .rejected(.invalidURL(reason: reason))
            }
        }
        let normalizedLength = parsed.string.utf8.count
        guard normalizedLength <= maxURLLength else { return .rejected(.tooLong(length: normalizedLength)) }
        guard !checkingSite || sites.contains(RegistrableDomain.siteKey(normalizedHost: parsed.host)) else {
            return .rejected(.otherSite(host: parsed.host))
        }
        if let pattern = exclude.first(where: { $0.matches(parsed) }) {
            return .rejected(.excluded(pattern: pattern.source))
        }
        if !include.isEmpty && !include.contains(where: { $0.matches(parsed) }) {
            return .rejected(.notIncluded)
        }
        return .allowed(parsed)
    }

    /// Whether the site of `url` (its registrable domain, or its host when it has none) is one of ``sites``,
    /// whatever the patterns say.
    package func containsSite(of url: String) -> Bool {
        guard let parsed = try? CrawlURL(url) else { return false }
        return sites.contains(RegistrableDomain.siteKey(normalizedHost: parsed.host))
    }

    private static func patterns(_ sources: [String]) throws(ScopeError) -> [URLPattern] {
        var patterns: [URLPattern] = []
        for source in sources { patterns.append(try URLPattern(source)) }
        return patterns
    }
}
