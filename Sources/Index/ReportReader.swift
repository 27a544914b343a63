import Bridge
import Foundation
import GRDB
import Store

/// Reads the dedup report of the last publish from the store (`searchlight report`).
public struct ReportReader: Sendable {
    private let store: Store

    /// A reader over `store`.
    public init(store: Store) {
        self.store = store
    }

    /// The last publish's summary, or `nil` when nothing was published yet.
    /// - Throws: ``StoreError``.
    public func lastPublish() throws(StoreError) -> PublishSummary? {
        try read { db in
            guard let json = try String.fetchOne(db, sql: "SELECT summary FROM publish_run ORDER BY id DESC LIMIT 1")
            else { return nil }
            return try JSONDecoder().decode(PublishSummary.self, from: Data(json.utf8))
        }
    }

    /// The report with at most `limit` clusters, the ones a reader needs first: withheld clusters,
    /// then merged ones (more than one member), then the rest, each by key. `nil` before any publish.
    public func report(clusterLimit limit: Int) throws(StoreError) -> DedupReport? {
        guard let summary = try lastPublish() else { return nil }
        var clusters: [DedupReport.Cluster] = []
        try forEachCluster(limit: max(0, limit)) { clusters.append($0) }
        return DedupReport(
            summary: Self.reportSummary(summary), clusters: clusters,
            generatedAt: Date(timeIntervalSince1970: summary.publishedAt).formatted(.iso8601),
            engagementThreshold: summary.engagementThreshold)
    }

    /// Every cluster in report order (for complete JSON output), read row by row in constant memory.
    public func forEachCluster(limit: Int? = nil, _ body: (DedupReport.Cluster) throws -> Void) throws(StoreError) {
        try read { db in
            // A cluster with more than one member was joined by a tagged link, so `matched_by` is not
            // empty exactly for merged clusters.
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT c.key, c.published, c.reason, c.matched_by, c.members, p.unique_identifier
                    FROM cluster c LEFT JOIN public_item p ON p.cluster_id = c.id
                    ORDER BY c.published, c.matched_by = '[]', c.key
                    LIMIT ?
                    """, arguments: [limit ?? -1])
            let decoder = JSONDecoder()
            while let row = try rows.next() {
                let members = try decoder.decode([DedupReport.Member].self, from: Data((row["members"] as String).utf8))
                let matchedBy = try decoder.decode([String].self, from: Data((row["matched_by"] as String).utf8))
                try body(
                    DedupReport.Cluster(
                        id: row["key"], published: row["published"], reason: row["reason"], matchedBy: matchedBy,
                        members: members, uniqueIdentifier: row["unique_identifier"]))
            }
        }
    }

    /// The report's summary (SPEC §6 shape) of a publish summary.
    public static func reportSummary(_ summary: PublishSummary) -> DedupReport.Summary {
        DedupReport.Summary(
            pages: summary.pages, activities: summary.activities, searchableItems: summary.searchableItems,
            clusters: summary.clusters, published: summary.published, duplicatesMerged: summary.duplicatesMerged,
            withheld: summary.withheld)
    }

    private func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try store.pool.read(body)
        } catch {
            throw StoreError(path: store.path, underlying: error)
        }
    }
}
