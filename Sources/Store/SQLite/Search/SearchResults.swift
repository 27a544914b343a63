import Foundation

/// One item found by a search, with the fields `search --json` prints (SPEC §6).
package struct SearchHit: Sendable, Hashable {
    /// The item's identifier in the public index.
    package var uniqueIdentifier: String
    /// Its title.
    package var title: String
    /// Its description, if it has one.
    package var contentDescription: String?
    /// Its web page, if it has one.
    package var webpageURL: String?
    /// Where it came from: `web`, `activity`, `searchableItem`.
    package var sources: [String]
    /// How well it matched; higher is better, results come in decreasing score. When every match
    /// was ranked: text relevance (bm25, negated) plus the item's engagement boost. When the matches
    /// were too many to rank (``SearchResults/totalIsLowerBound``): a tier bonus (200 for all words in
    /// the title, 100 in title or keywords, 0 elsewhere) plus the boost. The boost alone when only a
    /// query was given. See ``PublicSearch`` for the ranking model (the same on both engines: a PostgreSQL
    /// store is searched through its SQLite replica).
    package var score: Double

    /// Creates a hit.
    package init(
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

extension SearchHit {
    /// A hit whose sources are as the store keeps them: names separated by commas.
    init(
        uniqueIdentifier: String, title: String, contentDescription: String?, webpageURL: String?,
        storedSources: String, score: Double
    ) {
        self.init(
            uniqueIdentifier: uniqueIdentifier, title: title, contentDescription: contentDescription,
            webpageURL: webpageURL,
            sources: storedSources.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) },
            score: score)
    }
}

/// The answer to a search: how many items matched, and the best of them, best first.
package struct SearchResults: Sendable, Hashable {
    /// The number of items that matched (not only those returned); a lower bound when
    /// ``totalIsLowerBound``.
    package var total: Int
    /// Whether more than ``total`` items may match: the search stopped counting at
    /// ``PublicSearch/exactRankLimit`` + 1 matches, and ranked them approximately.
    package var totalIsLowerBound: Bool
    /// At most the requested limit of items, in decreasing ``SearchHit/score``.
    package var hits: [SearchHit]

    /// Creates results.
    package init(total: Int, totalIsLowerBound: Bool = false, hits: [SearchHit]) {
        self.total = total
        self.totalIsLowerBound = totalIsLowerBound
        self.hits = hits
    }
}
