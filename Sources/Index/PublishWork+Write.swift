import Bridge
import Foundation
import Logging
import Store

extension PublishWork {
    /// Writes the publish through `transaction`, on either engine, and returns the summary as stored for the
    /// report. Deletions come before insertions, so an item that moved between clusters never meets itself.
    ///
    /// The changed clusters are written 1,000 at a time. While one chunk is written, the next one's content
    /// is read and its items built in a child task, so building (most of the publisher's CPU) overlaps the
    /// store's writes. A transaction that prefers items in id order (a SQLite store building a whole new word
    /// index beside itself) gets the clusters in the plan's rank order, each telling how low the ids of the
    /// items after it can be.
    /// - Throws: ``PublishOvertaken`` when another publish committed since the snapshot, or what the store threw.
    func write(to transaction: any PublishTransaction, logger: Logger) async throws -> PublishSummary {
        // Two publishes may overlap on SQLite (two processes): the second would write clusters computed from
        // a snapshot the first already changed. Only the first to write wins; the other plans again.
        guard try await transaction.lastPublishID() == lastPublishID else { throw PublishOvertaken() }
        let start = try await transaction.begin(
            removing: removed, rewriting: changed.compactMap(\.storedID), changedClusters: changed.count,
            publishing: publishedCount)
        // Item ids follow the static rank order (ItemRankOrder): one sequence number per item.
        var sequence = start.firstSequence
        let writing = start.prefersIDOrder ? Self.inRankOrder(changed) : changed
        let fullText = transaction.writesFullText
        let chunks = writing.chunked(1000)
        var unreadablePageItems = 0
        var next = chunks.first.map { build($0, from: transaction, fullText: fullText) }
        do {
            for index in chunks.indices {
                guard let building = next else { break }
                let built = try await building.value
                next = index + 1 < chunks.count ? build(chunks[index + 1], from: transaction, fullText: fullText) : nil
                var writes: [ClusterWrite] = []
                writes.reserveCapacity(built.count)
                for (position, change) in built.enumerated() {
                    Self.note(change, unreadableCount: &unreadablePageItems, logger: logger)
                    var write = Self.clusterWrite(change, sequence: &sequence, fullText: fullText)
                    if start.prefersIDOrder {
                        let engagement = chunks[index][chunks[index].startIndex + position].plan.engagement
                        write.laterItemsFrom = ItemRankOrder.id(
                            boost: Self.boost(engagement: engagement), sequence: sequence)
                    }
                    writes.append(write)
                }
                try await transaction.write(writes, publishedAt: summary.publishedAt)
            }
        } catch {
            // The next chunk's reads must not outlive the transaction (on PostgreSQL they share its connection).
            next?.cancel()
            _ = try? await next?.value
            throw error
        }
        var final = summary
        final.pendingURLs = try await transaction.finish(queueing: pending, at: summary.publishedAt)
        final.unreadablePageItems = unreadablePageItems > 0 ? unreadablePageItems : nil
        final.count(try await transaction.indexCounts(), recordCounts: recordCounts)
        try await transaction.recordRun(
            at: final.publishedAt, engagementThreshold: final.engagementThreshold,
            changedClusters: final.changedClusters, summary: try Self.storedJSON(final))
        return final
    }

    /// A task that reads the content of `chunk` through `transaction` and builds its rows.
    private func build(
        _ chunk: ArraySlice<(plan: ClusterPlan, storedID: Int64?)>, from transaction: any PublishTransaction,
        fullText: Bool
    ) -> Task<[Change], any Error> {
        Task { [self] in
            let content = ChunkContent(try await transaction.content(for: contentNeeds(chunk)))
            try Task.checkCancellation()
            return changes(chunk, content: content, fullText: fullText)
        }
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
}

extension PublishWork {
    /// The rows of `change`; a published item takes the next sequence number. Without `fullText`, the item
    /// carries no gram row.
    static func clusterWrite(_ change: Change, sequence: inout Int64, fullText: Bool) -> ClusterWrite {
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
            titleFold: SQLiteStore.foldedPrefix(item.title), gramRow: fullText ? change.grams : nil)
        return write
    }
}
