import Bridge
import Foundation
import GRDB
import Logging
import Store

/// Rebuilds the public index from the store (`searchlight publish`, SPEC §4).
///
/// Everything is read from one snapshot; clusters are recomputed from the records' keys (cheap,
/// linear), and only clusters whose fingerprint changed — a member added, removed or changed, the
/// rules changed — or whose members expired or went stale since are rewritten. All writes happen in
/// one transaction: readers (searches) keep the previous index until it commits, and a crash leaves
/// the previous index whole.
public struct Publisher: Sendable {
    private let store: Store
    private let logger: Logger

    /// A publisher over `store`.
    public init(store: Store, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Publishes. `engagementThreshold` and `expiryDays`, when given, are recorded in the store first
    /// and apply from then on. Blocking (SQLite I/O): call it from a thread of your own in a busy process.
    /// - Throws: ``StoreError``.
    public func publish(engagementThreshold: Int? = nil, expiryDays: Double? = nil, now: Date = Date())
        throws(StoreError) -> PublishSummary
    {
        let time = now.timeIntervalSince1970
        do {
            if engagementThreshold != nil || expiryDays != nil {
                try store.pool.write { db in
                    try IndexSettings.record(threshold: engagementThreshold, expiryDays: expiryDays, in: db)
                    if let engagementThreshold { try Store.purgeActivities(below: engagementThreshold, in: db) }
                }
            }
            var attempt = 0
            var summary: PublishSummary
            while true {
                let work = try store.pool.read { db in try PublishWork(db, now: time) }
                do {
                    summary = try store.withBulkWriting {
                        try store.pool.write { db in try work.write(to: db, buildingWith: store.pool, logger: logger) }
                    }
                    break
                } catch is PublishWork.Overtaken where attempt < 5 {
                    attempt += 1
                    logger.info(
                        "another publish committed first; publishing again", metadata: ["attempt": "\(attempt)"])
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
        } catch {
            throw StoreError(path: store.path, underlying: error)
        }
    }
}
