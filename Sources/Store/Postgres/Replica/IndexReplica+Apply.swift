import Foundation
import GRDB

/// Bringing a replica forward: the changes after its generation, read from one PostgreSQL snapshot, applied
/// in one SQLite transaction.
extension IndexReplica {
    /// What applying the changes came to.
    enum ApplyOutcome {
        case applied(ReplicaSync)
        case rebuild(ReplicaSync.RebuildReason)
        /// The file's generation was not the one planned from (another process synced it meanwhile).
        case overtaken
    }

    /// The most items one sync applies row by row; past it the replica is rebuilt (a rebuild writes the
    /// full-text indexes in one pass, and holds one batch in memory rather than the whole change).
    static let maxAppliedItems = 100_000

    /// Reads the changes after `current`'s generation and applies them to its file.
    func applyChanges(to current: Opened) async throws -> ApplyOutcome {
        try await database.readIndexSnapshot { reader in
            let head = try await reader.head()
            let from = current.generation
            if head.generation == from {
                return .applied(ReplicaSync(from: from, generation: from, written: 0, removed: 0))
            }
            guard from >= head.historyFrom, from < head.generation else { return .rebuild(.historyPruned) }
            guard try await reader.writtenCount(after: from) <= Self.maxAppliedItems else {
                return .rebuild(.largeChange)
            }
            let removed = try await reader.removedIDs(after: from)
            var rows: [PublishedItemRow] = []
            try await reader.forEachItemBatch(after: from, batchSize: 1_000) { batch in
                rows += batch.map(Self.withGrams)
            }
            let collected = rows
            let applied = try await current.store.pool.writeWithoutTransaction { db -> Bool in
                var applied = false
                try db.inTransaction(.immediate) {
                    guard try ReplicaMarks.read(db).generation == from else { return .rollback }
                    let writer = ReplicaWriter(db)
                    try writer.begin()
                    try writer.remove(removed, before: collected)
                    try writer.insert(collected)  // in id order, as the snapshot reads them
                    try writer.finish(rebuildingWords: false)
                    try ReplicaMarks.setGeneration(head.generation, in: db)
                    applied = true
                    return .commit
                }
                return applied
            }
            guard applied else { return .overtaken }
            return .applied(
                ReplicaSync(from: from, generation: head.generation, written: rows.count, removed: removed.count))
        }
    }

    /// `row` with its gram index row, when its text has words written without spaces.
    static func withGrams(_ row: PublishedItemRow) -> PublishedItemRow {
        var row = row
        row.item.gramRow = GramText.row(
            title: row.item.title, description: row.item.description, keywords: row.item.keywords)
        return row
    }
}
