/// Why a ``CrawlScope`` or ``URLPattern`` could not be built from the given options.
package enum ScopeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No seed URLs: the scope would be empty.
    case noSeeds
    /// A seed is not a crawlable URL.
    case invalidSeed(String, reason: CrawlURL.ParseError)
    /// An include or exclude pattern was refused.
    case invalidPattern(String, problem: URLPattern.Problem)
    /// The maximum URL length is outside ``CrawlScope/maximumURLLengthRange``.
    case invalidMaximumURLLength(Int)

    /// A readable message naming the offending value.
    package var description: String {
        switch self {
        case .noSeeds:
            "no seed URLs given"
        case .invalidSeed(let seed, let reason):
            "seed '\(seed)': \(reason)"
        case .invalidPattern(let pattern, let problem):
            "pattern '\(pattern)': \(problem)"
        case .invalidMaximumURLLength(let length):
            "maximum URL length \(length) is outside \(CrawlScope.maximumURLLengthRange.lowerBound)"
                + "–\(CrawlScope.maximumURLLengthRange.upperBound)"
        }
    }
}
