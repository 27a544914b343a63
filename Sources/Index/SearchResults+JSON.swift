import Store
internal import StrictJSON

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
                JSONMember("contentDescription", hit.contentDescription.map(JSONValue.string) ?? .null),
                JSONMember("score", .number(JSONNumber(literal: hit.score.isFinite ? String(hit.score) : "0"))),
                JSONMember("sources", .array(hit.sources.map(JSONValue.string))),
                JSONMember("title", .string(hit.title)),
                JSONMember("uniqueIdentifier", .string(hit.uniqueIdentifier)),
                JSONMember("webpageURL", hit.webpageURL.map(JSONValue.string) ?? .null),
            ])
        }
        var members: [JSONMember] = [
            JSONMember("query", .string(query)), JSONMember("results", .array(results)),
            JSONMember("total", .number(total)),
        ]
        // Added to SPEC §6's shape only when `total` is a lower bound (the matches were too many to count).
        if totalIsLowerBound { members.append(JSONMember("totalIsLowerBound", .bool(true))) }
        return JSONValue.object(members).serialized()
    }
}
