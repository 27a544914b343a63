import Bridge
import Foundation
import Store

/// Reads the dedup report of the last publish from the store (`searchlight report`), on either engine.
package struct ReportReader: Sendable {
    private let store: any ReportStore

    /// A reader over the SQLite store `store`.
    package init(store: SQLiteStore) {
        self.store = store
    }

    /// A reader over a store of either engine.
    package init(index: any PublicIndexStore) {
        self.store = index
    }

    /// The last publish's summary, or `nil` when nothing was published yet.
    /// - Throws: ``StoreError``.
    package func lastPublish() async throws(StoreError) -> PublishSummary? {
        guard let json = try await store.lastPublishSummary() else { return nil }
        do {
            return try JSONDecoder().decode(PublishSummary.self, from: Data(json.utf8))
        } catch {
            throw StoreError(path: "publish_run", message: "the last publish's summary does not decode: \(error)")
        }
    }

    /// The report with at most `limit` clusters, the ones a reader needs first: withheld clusters,
    /// then merged ones (more than one member), then the rest, each by key. `nil` before any publish.
    /// - Throws: ``StoreError``, or a decoding error for a cluster's stored lists.
    package func report(clusterLimit limit: Int) async throws -> DedupReport? {
        guard let summary = try await lastPublish() else { return nil }
        var clusters: [DedupReport.Cluster] = []
        try await forEachCluster(limit: max(0, limit)) { clusters.append($0) }
        return DedupReport(
            summary: Self.reportSummary(summary), clusters: clusters,
            generatedAt: Date(timeIntervalSince1970: summary.publishedAt).formatted(.iso8601),
            engagementThreshold: summary.engagementThreshold)
    }

    /// Every cluster in report order (for complete JSON output), read row by row in constant memory.
    /// - Throws: ``StoreError``, a decoding error for a cluster's stored lists, or what `body` throws.
    package func forEachCluster(limit: Int? = nil, _ body: (DedupReport.Cluster) async throws -> Void) async throws {
        let decoder = JSONDecoder()
        try await store.forEachReportCluster(limit: limit) { row in
            let members = try decoder.decode([DedupReport.Member].self, from: Data(row.members.utf8))
            let matchedBy = try decoder.decode([String].self, from: Data(row.matchedBy.utf8))
            try await body(
                DedupReport.Cluster(
                    id: row.key, published: row.published, reason: row.reason, matchedBy: matchedBy,
                    members: members, uniqueIdentifier: row.uniqueIdentifier))
        }
    }

    /// Writes SPEC §6's report JSON of the last publish, `{"summary":…,"clusters":[…]}` (keys sorted
    /// within each part), cluster by cluster through `write`, so a million clusters never sit in memory;
    /// returns `false`, writing nothing, when nothing was published yet.
    /// - Throws: ``StoreError``, a decoding error for a cluster's stored lists, or what `write` throws.
    package func writeJSON(_ write: (String) async throws -> Void) async throws -> Bool {
        guard let summary = try await lastPublish() else { return false }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let head = try encoder.encode(Self.reportSummary(summary))
        try await write("{\"summary\":" + String(decoding: head, as: UTF8.self))
        try await write(",\"engagementThreshold\":\(summary.engagementThreshold)")
        try await write(",\"generatedAt\":\"\(Date(timeIntervalSince1970: summary.publishedAt).formatted(.iso8601))\"")
        try await write(",\"clusters\":[")
        var first = true
        try await forEachCluster { cluster in
            let data = try encoder.encode(cluster)
            try await write((first ? "" : ",") + String(decoding: data, as: UTF8.self))
            first = false
        }
        try await write("]}\n")
        return true
    }

    /// The report's summary (SPEC §6 shape) of a publish summary.
    package static func reportSummary(_ summary: PublishSummary) -> DedupReport.Summary {
        DedupReport.Summary(
            pages: summary.pages, activities: summary.activities, searchableItems: summary.searchableItems,
            clusters: summary.clusters, published: summary.published, duplicatesMerged: summary.duplicatesMerged,
            withheld: summary.withheld)
    }
}
