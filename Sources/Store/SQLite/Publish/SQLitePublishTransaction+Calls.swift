import GRDB

/// The calls of ``PublishTransaction`` on SQLite: each a ``SQLitePublishWriter`` operation on the writer
/// thread, but ``content(for:)``, which reads on a reader connection.
extension SQLitePublishTransaction {
    func lastPublishID() async throws -> Int64 {
        try await perform { try $0.lastPublishID() }
    }

    func begin(removing removed: [Int64], rewriting rewritten: [Int64], changedClusters: Int, publishing itemCount: Int)
        async throws -> PublishStart
    {
        try await perform { writer in
            try writer.removeClusters(removed, rewriting: rewritten)
            let first = try writer.reserveSequences(itemCount)
            try writer.deferItemIndexes(writing: itemCount)
            return PublishStart(firstSequence: first, prefersIDOrder: writer.isBuildingWordIndexBeside)
        }
    }

    func content(for needs: PublishChunkNeeds) async throws -> PublishChunkContent {
        try await store.read { db in
            let reader = SQLitePublishReader(db)
            return PublishChunkContent(
                pageItems: try reader.pageItems(needs.pages), activities: try reader.activityContents(needs.activities),
                donors: try reader.distinctDonors(needs.donorSets))
        }
    }

    func write(_ clusters: [ClusterWrite], publishedAt: Double) async throws {
        try await perform { writer in
            for cluster in clusters {
                try writer.write(cluster, publishedAt: publishedAt, laterItemsFrom: cluster.laterItemsFrom)
            }
        }
    }

    func finish(queueing pending: [(key: String, url: String)], at time: Double) async throws -> Int {
        try await perform { writer in
            try writer.finishIndexes()
            return try writer.queuePending(pending, at: time)
        }
    }

    func indexCounts() async throws -> (published: Int, withheldClusters: [String: Int]) {
        try await perform { try $0.indexCounts() }
    }

    func recordRun(at time: Double, engagementThreshold: Int, changedClusters: Int, summary: String) async throws {
        try await perform { writer in
            try writer.recordRun(
                at: time, engagementThreshold: engagementThreshold, changedClusters: changedClusters, summary: summary)
        }
    }
}
