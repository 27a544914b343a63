/// What one ``IndexReplica/sync()`` did.
package struct ReplicaSync: Sendable, Equatable {
    /// Why a replica was rebuilt rather than brought forward.
    package enum RebuildReason: String, Sendable {
        /// No replica file, or none that could be opened (damaged, of another store or format).
        case missing
        /// The store's history no longer reaches back to the replica's generation.
        case historyPruned = "history-pruned"
        /// More items changed than applying them one by one is worth.
        case largeChange = "large-change"
        /// Other processes kept changing the file under this one's syncs.
        case overtaken
    }

    /// The generation before (`nil` when there was no replica).
    package var from: Int64?
    /// The generation now.
    package var generation: Int64
    /// Items written.
    package var written: Int
    /// Items removed.
    package var removed: Int
    /// Why the replica was rebuilt, when it was.
    package var rebuilt: RebuildReason?
    /// Wall time of the sync.
    package var seconds: Double = 0
}
