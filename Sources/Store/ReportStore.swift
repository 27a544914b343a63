/// What `searchlight report` reads: the last publish's summary and its clusters, from either engine.
package protocol ReportStore: Sendable {
    /// The last publish's summary as stored (JSON), or `nil` when nothing was published yet.
    /// - Throws: ``StoreError``.
    func lastPublishSummary() async throws(StoreError) -> String?

    /// The clusters of the last publish in report order — withheld first, then merged ones (more than one
    /// member), each by key — at most `limit` of them (all when `nil`), handed to `body` one at a time.
    /// - Throws: ``StoreError``, or what `body` throws.
    func forEachReportCluster(limit: Int?, _ body: (ReportClusterRow) async throws -> Void) async throws
}

/// A cluster as the report lists it.
package struct ReportClusterRow: Sendable {
    package var key: String
    package var published: Bool
    package var reason: String
    /// The links that joined its members, as JSON (`[]` for a cluster of one member).
    package var matchedBy: String
    /// Its members, as JSON.
    package var members: String
    /// Its published item's identifier.
    package var uniqueIdentifier: String?

    package init(
        key: String, published: Bool, reason: String, matchedBy: String, members: String, uniqueIdentifier: String?
    ) {
        self.key = key
        self.published = published
        self.reason = reason
        self.matchedBy = matchedBy
        self.members = members
        self.uniqueIdentifier = uniqueIdentifier
    }
}

extension ReportClusterRow {
    /// The query both engines run, `LIMIT` over the parameter `limit` (`NULL`: no limit, on PostgreSQL; `-1`
    /// on SQLite). A cluster with more than one member was joined by a tagged link, so `matched_by` is not
    /// empty exactly for merged clusters.
    static func query(limit: String) -> String {
        """
        SELECT c.key, c.published, c.reason, c.matched_by, c.members, p.unique_identifier
        FROM cluster c LEFT JOIN public_item p ON p.cluster_id = c.id
        ORDER BY c.published, c.matched_by = '[]', c.key
        LIMIT \(limit)
        """
    }
}
