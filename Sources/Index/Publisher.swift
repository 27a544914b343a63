import Bridge
import Foundation
import GRDB
import Logging
import Store

/// Rebuilds the public index from the store (`searchlight publish`, SPEC §4), on either engine.
///
/// Everything is read from one snapshot; clusters are recomputed from the records' keys (cheap,
/// linear), and only clusters whose fingerprint changed — a member added, removed or changed, the
/// rules changed — or whose members expired or went stale since are rewritten. All writes happen in
/// one transaction: readers (searches) keep the previous index until it commits, and a crash leaves
/// the previous index whole. One publish writes at a time: on SQLite the second to write plans again
/// from the first one's result; on PostgreSQL the second waits for the first (an advisory lock) before
/// it reads its snapshot.
package struct Publisher: Sendable {
    private let engine: PublicIndexStore
    private let logger: Logger

    /// A publisher over the SQLite store `store`.
    package init(store: Store, logger: Logger) {
        engine = .sqlite(store)
        self.logger = logger
    }

    /// A publisher over a store of either engine.
    package init(index: PublicIndexStore, logger: Logger) {
        engine = index
        self.logger = logger
    }

    /// Publishes. `engagementThreshold` and `expiryDays`, when given, are recorded in the store first
    /// and apply from then on. A SQLite store's blocking work runs on a thread of its own.
    /// - Throws: ``StoreError``.
    package func publish(engagementThreshold: Int? = nil, expiryDays: Double? = nil, now: Date = Date())
        async throws(StoreError) -> PublishSummary
    {
        let summary: PublishSummary
        switch engine {
        case .sqlite(let store):
            let result = await Self.onThread { [logger] () throws(StoreError) -> PublishSummary in
                try Self.publish(
                    store, engagementThreshold: engagementThreshold, expiryDays: expiryDays, now: now, logger: logger)
            }
            summary = try result.get()
        case .postgres(let database):
            summary = try await database.publishTransaction { [logger] transaction in
                if engagementThreshold != nil || expiryDays != nil {
                    try await transaction.recordSettings(
                        engagementThreshold: engagementThreshold, expiryDays: expiryDays)
                }
                let work = PublishWork(
                    snapshot: try await PublishSnapshot(transaction), now: now.timeIntervalSince1970)
                return try await work.write(to: transaction, logger: logger)
            }
        }
        logger.info(
            "published",
            metadata: [
                "clusters": "\(summary.clusters)", "published": "\(summary.published)",
                "changed": "\(summary.changedClusters)", "removed": "\(summary.removedClusters)",
                "unreadablePageItems": "\(summary.unreadablePageItems ?? 0)",
            ])
        return summary
    }

    private static func publish(
        _ store: Store, engagementThreshold: Int?, expiryDays: Double?, now: Date, logger: Logger
    ) throws(StoreError) -> PublishSummary {
        let time = now.timeIntervalSince1970
        do {
            if engagementThreshold != nil || expiryDays != nil {
                try store.pool.write { db in
                    try IndexSettings.record(threshold: engagementThreshold, expiryDays: expiryDays, in: db)
                    if let engagementThreshold { try Store.purgeActivities(below: engagementThreshold, in: db) }
                }
            }
            var attempt = 0
            while true {
                let work = try store.pool.read { db in try PublishWork(db, now: time) }
                do {
                    return try store.publishTransaction(expectingItems: work.publishedCount) { db, wordIndexFile in
                        try work.write(to: db, buildingWith: store.pool, wordIndexFile: wordIndexFile, logger: logger)
                    }
                } catch is PublishWork.Overtaken where attempt < 5 {
                    attempt += 1
                    logger.info(
                        "another publish committed first; publishing again", metadata: ["attempt": "\(attempt)"])
                }
            }
        } catch {
            throw StoreError(path: store.path, underlying: error)
        }
    }

    /// Runs `body` on a new thread (SQLite's I/O blocks) and returns its result.
    private static func onThread<Value: Sendable>(
        _ body: @escaping @Sendable () throws(StoreError) -> Value
    ) async -> Result<Value, StoreError> {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: Result { () throws(StoreError) in try body() }) }
            thread.name = "searchlight-publish"
            // Planning a million records recurses deeper than a secondary thread's default 512 KiB allows.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
