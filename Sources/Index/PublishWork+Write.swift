import Bridge
import Foundation
import GRDB
import Logging
import Store

extension PublishWork {
    /// Writes the publish in the caller's transaction; returns the summary as stored for the report.
    /// Deletions come before insertions, so an item that moved between clusters never meets itself.
    ///
    /// The items are built on another thread, a chunk ahead, from `reader` (the store's pool): what they
    /// read (pages, activities, donor hashes) is nothing this transaction changes, and while it holds the
    /// write lock nothing else can change it, so a read transaction begun now sees what this one sees.
    /// A whole new index has its word index built in `wordIndexFile` meanwhile, when given
    /// (``Store/publishTransaction(expectingItems:_:)``).
    func write(
        to db: Database, buildingWith reader: any DatabaseReader, wordIndexFile: WordIndexSideBuild? = nil,
        logger: Logger
    ) throws -> PublishSummary {
        let writer = SQLitePublishWriter(db, wordIndexFile: wordIndexFile)
        // Two publishes may overlap (two processes): the second would write clusters computed from a
        // snapshot the first already changed. Only the first to write wins; the other recomputes.
        guard try writer.lastPublishID() == lastPublishID else { throw Overtaken() }
        try writer.removeClusters(removed, rewriting: changed.compactMap(\.storedID))
        // Item ids follow the static rank order (ItemRankOrder): reserve one sequence number per item.
        var sequence = try writer.reserveSequences(publishedCount)
        try writer.deferItemIndexes(writing: publishedCount)
        // A word index built beside the store takes its rows in id order: written in the plan's rank order,
        // the items come nearly so, and each one tells how low the next ones' ids can be.
        let besides = writer.isBuildingWordIndexBeside
        let writing = besides ? Self.inRankOrder(changed) : changed
        let built = buildChanges(of: writing, with: reader)
        defer { built.cancel() }  // a failed write stops the builder at its next chunk
        var unreadablePageItems = 0
        var position = 0
        while let chunk = try built.receive() {
            for change in chunk {
                Self.note(change, unreadableCount: &unreadablePageItems, logger: logger)
                let write = Self.clusterWrite(change, sequence: &sequence, for: .sqlite)
                let floor =
                    besides
                    ? ItemRankOrder.id(
                        boost: Self.boost(engagement: writing[position].plan.engagement), sequence: sequence)
                    : .min
                try writer.write(write, publishedAt: summary.publishedAt, laterItemsFrom: floor)
                position += 1
            }
        }
        try writer.finishIndexes()
        var final = summary
        final.pendingURLs = try writer.queuePending(pending, at: summary.publishedAt)
        final.unreadablePageItems = unreadablePageItems > 0 ? unreadablePageItems : nil
        final.count(try writer.indexCounts(), recordCounts: recordCounts)
        try writer.recordRun(
            at: final.publishedAt, engagementThreshold: final.engagementThreshold,
            changedClusters: final.changedClusters, summary: try Self.storedJSON(final))
        return final
    }

    /// How many items the publish writes.
    var publishedCount: Int { changed.count { $0.plan.isPublished } }

    /// How many unreadable page items one publish logs as warnings; the rest are logged at debug level.
    static let unreadableWarnings = 10

    /// Counts and logs `change`'s unreadable page item, if it has one: the first few are warnings that
    /// name the page and the reason; a store full of them must not flood the log.
    static func note(_ change: Change, unreadableCount count: inout Int, logger: Logger) {
        guard let unreadable = change.unreadablePageItem else { return }
        count += 1
        logger.log(
            level: count <= unreadableWarnings ? .warning : .debug,
            "a page's stored item does not decode; published as if the page had none",
            metadata: ["url": "\(unreadable.url)", "reason": "\(unreadable.error)"])
    }

    /// A cluster's reason when it is published.
    static let publishedReason = "published"

    /// Engagement ranks with diminishing returns: the 1,000th donor adds less than the 3rd.
    static func boost(engagement: Int) -> Double {
        log(1 + Double(engagement))
    }

    /// The cluster's `matchedBy` list as stored (JSON); its entries are the bridge's fixed link names.
    static func matchedByJSON(_ matchedBy: [String]) -> String {
        "[" + matchedBy.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }

    /// The summary as `publish_run` stores it for the report (sorted keys).
    static func storedJSON(_ summary: PublishSummary) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(summary), as: UTF8.self)
    }

    /// `changes` ordered by the rank bucket of their plan's engagement, highest first (the order of item ids,
    /// ``ItemRankOrder``), in their order within a bucket. A plan's engagement sums its activities' donors, so
    /// the item's, which counts a donor of two of them once, is never higher while the store is unchanged.
    static func inRankOrder(_ changes: [(plan: ClusterPlan, storedID: Int64?)]) -> [(
        plan: ClusterPlan, storedID: Int64?
    )] {
        let buckets = changes.map { ItemRankOrder.bucket(boost: boost(engagement: $0.plan.engagement)) }
        let order = changes.indices.sorted { buckets[$0] != buckets[$1] ? buckets[$0] > buckets[$1] : $0 < $1 }
        return order.map { changes[$0] }
    }

    /// Starts a thread that builds the rows of `writing`'s clusters, 1,000 clusters at a time in order, each
    /// in a read transaction of its own, and hands them over at most two chunks ahead of the writer.
    private func buildChanges(
        of writing: [(plan: ClusterPlan, storedID: Int64?)], with reader: any DatabaseReader
    ) -> BatchChannel<[Change]> {
        BatchChannel.produced(by: "searchlight-publish-builder") { [self] send in
            for chunk in writing.chunked(1000) {
                try send(reader.read { db in changes(chunk, content: try content(of: chunk, db: db), for: .sqlite) })
            }
        }
    }
}
