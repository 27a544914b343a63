import Markup
import Store

extension SearchResults {
    /// SPEC §6's `search --json` object, as `searchlight search --json` prints it and `GET /api/search`
    /// answers: `{"query","total","results":[{"uniqueIdentifier","title","contentDescription","webpageURL",
    /// "sources","score"}]}`, keys sorted, plus `"totalIsLowerBound":true` when more items may match than
    /// `total`. `query` is the text searched for (else the `CSSearchQuery` string).
    ///
    /// Written through ``JSONValue`` with the members already in key order: Foundation's
    /// `JSONSerialization` with sorted keys was a quarter of the server's CPU under load.
    package func jsonText(query: String) -> String {
        let results: [JSONValue] = hits.map { hit in
            .object([
                ("contentDescription", hit.contentDescription.map(JSONValue.string) ?? .null),
                ("score", .number(hit.score.isFinite ? String(hit.score) : "0")),
                ("sources", .array(hit.sources.map(JSONValue.string))),
                ("title", .string(hit.title)),
                ("uniqueIdentifier", .string(hit.uniqueIdentifier)),
                ("webpageURL", hit.webpageURL.map(JSONValue.string) ?? .null),
            ])
        }
        var members: [(key: String, value: JSONValue)] = [
            ("query", .string(query)), ("results", .array(results)), ("total", .number(String(total))),
        ]
        // Added to SPEC §6's shape only when `total` is a lower bound (the matches were too many to count).
        if totalIsLowerBound { members.append(("totalIsLowerBound", .bool(true))) }
        return JSONValue.object(members).serialized()
    }
}
