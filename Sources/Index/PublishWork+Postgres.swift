import Bridge
import Foundation
import Logging
import Store

extension PublishWork {
    /// Writes the publish in the publisher's transaction on a PostgreSQL store and returns the summary as
    /// stored for the report: the same clusters, items and counts as ``write(to:buildingWith:logger:)``
    /// writes into a SQLite store, without full-text tables (PostgreSQL is not searched: a replica builds its
    /// own from the items, ``IndexReplica``), each item tagged with the publish's generation. Items are built and written 1,000 clusters at a time; deletions come first, so an item that
    /// moved between clusters never meets itself.
    ///
    /// A chunk's rows are built in a child task while the server inserts the previous chunk's: the
    /// transaction's one connection only ever runs one statement at a time, reads of chunk `n` before the
    /// write of chunk `n − 1`, so building (most of the publisher's CPU) overlaps the server's inserts.
    func write(to transaction: PostgresPublishTransaction, logger: Logger) async throws -> PublishSummary {
        let generation = removed.isEmpty && changed.isEmpty ? nil : try await transaction.beginGeneration()
        try await transaction.deleteClusters(removed)
        try await transaction.deleteItems(ofClusters: changed.compactMap(\.storedID))
        var sequence = try await transaction.reserveSequences(changed.count { $0.plan.isPublished })
        var unreadablePageItems = 0
        var previous: [ClusterWrite]?
        for chunk in changed.chunked(1000) {
            let needs = contentNeeds(chunk)
            let donors = try await transaction.distinctDonors(needs.donorSets.map { ($0.position, $0.activities) })
            let content = ChunkContent(
                pageItems: try await transaction.pageItems(needs.pages),
                activities: try await transaction.activityContents(needs.activities).mapValues(ActivityContent.init),
                donors: donors)
            // The previous chunk was built before this one's reads: its items' sequence numbers are taken.
            let first = sequence
            let building = Task { [self] in
                var next = first
                let built = changes(chunk, content: content, for: FullTextEngine.postgres)
                let writes = built.map { Self.clusterWrite($0, sequence: &next, for: .postgres) }
                return (built, writes, next)
            }
            if let previous { try await transaction.write(previous, publishedAt: summary.publishedAt) }
            let (built, writes, next) = await building.value
            for change in built { Self.note(change, unreadableCount: &unreadablePageItems, logger: logger) }
            sequence = next
            previous = writes
        }
        if let previous { try await transaction.write(previous, publishedAt: summary.publishedAt) }
        var final = summary
        final.pendingURLs = try await transaction.queuePending(pending, at: summary.publishedAt)
        final.unreadablePageItems = unreadablePageItems > 0 ? unreadablePageItems : nil
        final.count(try await transaction.indexCounts(), recordCounts: recordCounts)
        try await transaction.recordRun(
            at: final.publishedAt, engagementThreshold: final.engagementThreshold,
            changedClusters: final.changedClusters, summary: try Self.storedJSON(final))
        if let generation { try await transaction.endGeneration(generation) }
        return final
    }

}

/// The engine a cluster's rows are written for.
enum FullTextEngine {
    /// FTS5 tables that read the item's columns, and the gram index's row.
    case sqlite
    /// No full-text rows: a replica computes its own (``IndexReplica``).
    case postgres
}

extension PublishWork {
    /// The rows of `change`; a published item takes the next sequence number.
    static func clusterWrite(_ change: Change, sequence: inout Int64, for engine: FullTextEngine) -> ClusterWrite {
        var write = ClusterWrite(
            storedID: change.storedID, key: change.key, fingerprint: change.fingerprint,
            reason: change.reason?.rawValue ?? Self.publishedReason, matchedBy: matchedByJSON(change.matchedBy),
            members: change.membersJSON, validUntil: change.validUntil, item: nil)
        guard let item = change.item else { return write }
        let boost = Self.boost(engagement: item.engagement)
        let id = ItemRankOrder.id(boost: boost, sequence: sequence)
        sequence += 1
        write.item = PublicItemWrite(
            id: id, uniqueIdentifier: item.uniqueIdentifier, webpageURL: item.webpageURL, bundle: item.bundle,
            title: item.title, description: item.description, keywords: item.keywords,
            domainIdentifier: item.domainIdentifier, rating: item.rating, ratingCount: item.ratingCount,
            engagement: item.engagement, boost: boost, sources: item.sources.joined(separator: ","),
            expiresAt: item.expiresAt, lastSeen: item.lastSeen, itemJSON: item.itemJSON,
            titleFold: Store.foldedPrefix(item.title), gramRow: engine == .postgres ? nil : change.grams)
        return write
    }
}
