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
    func write(to db: Database, buildingWith reader: any DatabaseReader, logger: Logger) throws -> PublishSummary {
        let writer = SQLitePublishWriter(db)
        // Two publishes may overlap (two processes): the second would write clusters computed from a
        // snapshot the first already changed. Only the first to write wins; the other recomputes.
        guard try writer.lastPublishID() == lastPublishID else { throw Overtaken() }
        try writer.removeClusters(removed, rewriting: changed.compactMap(\.storedID))
        // Item ids follow the static rank order (ItemRankOrder): reserve one sequence number per item.
        let published = changed.count { $0.plan.isPublished }
        var sequence = try writer.reserveSequences(published)
        try writer.deferItemIndexes(writing: published)
        let built = buildChanges(with: reader)
        defer { built.cancel() }  // a failed write stops the builder at its next chunk
        var unreadablePageItems = 0
        while let chunk = try built.receive() {
            for change in chunk {
                Self.note(change, unreadableCount: &unreadablePageItems, logger: logger)
                try writer.write(
                    Self.clusterWrite(change, sequence: &sequence, for: .sqlite), publishedAt: summary.publishedAt)
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

    /// Starts a thread that builds the changed clusters' rows, 1,000 clusters at a time in order, each in
    /// a read transaction of its own, and hands them over at most two chunks ahead of the writer.
    private func buildChanges(with reader: any DatabaseReader) -> BatchChannel<[Change]> {
        BatchChannel.produced(by: "searchlight-publish-builder") { [self] send in
            for chunk in changed.chunked(1000) {
                try send(reader.read { db in changes(chunk, content: try content(of: chunk, db: db), for: .sqlite) })
            }
        }
    }
}
