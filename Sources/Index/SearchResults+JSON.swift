import Foundation
import Store

extension SearchResults {
    /// SPEC §6's `search --json` object, as `searchlight search --json` prints it and `GET /api/search`
    /// answers: `{"query","total","results":[{"uniqueIdentifier","title","contentDescription","webpageURL",
    /// "sources","score"}]}`, keys sorted, plus `"totalIsLowerBound":true` when more items may match than
    /// `total`. `query` is the text searched for (else the `CSSearchQuery` string).
    package func jsonText(query: String) throws -> String {
        let results: [[String: Any]] = hits.map { hit in
            [
                "uniqueIdentifier": hit.uniqueIdentifier, "title": hit.title,
                "contentDescription": hit.contentDescription ?? NSNull(),
                "webpageURL": hit.webpageURL ?? NSNull(), "sources": hit.sources, "score": hit.score,
            ]
        }
        var object: [String: Any] = ["query": query, "total": total, "results": results]
        // Added to SPEC §6's shape only when `total` is a lower bound (the matches were too many to count).
        if totalIsLowerBound { object["totalIsLowerBound"] = true }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
