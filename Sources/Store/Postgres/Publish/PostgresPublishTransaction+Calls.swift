import Synchronization

/// The calls of ``PublishTransaction`` on PostgreSQL that are not statements of their own
/// (`PostgresPublishTransaction+Write.swift` has those).
extension PostgresPublishTransaction: PublishTransaction {
    /// A replica computes its own full-text rows (``IndexReplica``).
    package var writesFullText: Bool { false }

    package func begin(
        removing removed: [Int64], rewriting rewritten: [Int64], changedClusters: Int, publishing itemCount: Int
    ) async throws -> PublishStart {
        if !removed.isEmpty || changedClusters > 0 {
            let number = try await beginGeneration()
            generation.withLock { $0 = number }
        }
        try await deleteClusters(removed)
        try await deleteItems(ofClusters: rewritten)
        return PublishStart(firstSequence: try await reserveSequences(itemCount), prefersIDOrder: false)
    }

    package func content(for needs: PublishChunkNeeds) async throws -> PublishChunkContent {
        PublishChunkContent(
            pageItems: try await pageItems(needs.pages), activities: try await activityContents(needs.activities),
            donors: try await distinctDonors(needs.donorSets))
    }

    package func finish(queueing pending: [(key: String, url: String)], at time: Double) async throws -> Int {
        try await queuePending(pending, at: time)
    }
}
