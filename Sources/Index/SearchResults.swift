/// One item found by a search, with the fields `search --json` prints (SPEC §6).
public struct SearchHit: Sendable, Hashable {
    /// The item's identifier in the public index.
    public var uniqueIdentifier: String
    /// Its title.
    public var title: String
    /// Its description, if it has one.
    public var contentDescription: String?
    /// Its web page, if it has one.
    public var webpageURL: String?
    /// Where it came from: `web`, `activity`, `searchableItem`.
    public var sources: [String]
    /// How well it matched; higher is better, results come in decreasing score. Text relevance
    /// (bm25, negated) plus the item's engagement boost; the boost alone when only a query was given.
    public var score: Double

    /// Creates a hit.
    public init(
        uniqueIdentifier: String, title: String, contentDescription: String?, webpageURL: String?,
        sources: [String], score: Double
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.title = title
        self.contentDescription = contentDescription
        self.webpageURL = webpageURL
        self.sources = sources
        self.score = score
    }
}

/// The answer to a search: how many items matched, and the best of them, best first.
public struct SearchResults: Sendable, Hashable {
    /// The number of items that matched (not only those returned).
    public var total: Int
    /// At most the requested limit of items, in decreasing ``SearchHit/score``.
    public var hits: [SearchHit]

    /// Creates results.
    public init(total: Int, hits: [SearchHit]) {
        self.total = total
        self.hits = hits
    }
}
