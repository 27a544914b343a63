import Bridge
import Foundation
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
    private let store: any PublishStore
    private let logger: Logger

    /// A publisher over a store of either engine.
    package init(store: any PublishStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// How many times a SQLite publish overtaken by another plans again before it gives up.
    static let maxAttempts = 6

    /// Publishes. `engagementThreshold` and `expiryDays`, when given, are recorded in the store first
    /// and apply from then on. The plan is made on a thread of its own.
    /// - Throws: ``StoreError``.
    package func publish(engagementThreshold: Int? = nil, expiryDays: Double? = nil, now: Date = Date())
        async throws(StoreError) -> PublishSummary
    {
        let time = now.timeIntervalSince1970
        var attempt = 1
        var summary: PublishSummary
        while true {
            do {
                summary = try await store.publish(
                    recordingEngagementThreshold: attempt == 1 ? engagementThreshold : nil,
                    expiryDays: attempt == 1 ? expiryDays : nil, into: PublishSnapshot(),
                    plan: { snapshot in await Self.onThread { PublishWork(snapshot: snapshot, now: time) } },
                    itemCount: \.publishedCount,
                    write: { [logger] work, transaction in try await work.write(to: transaction, logger: logger) })
                break
            } catch is PublishOvertaken where attempt < Self.maxAttempts {
                attempt += 1
                logger.info("another publish committed first; publishing again", metadata: ["attempt": "\(attempt)"])
            } catch {
                throw StoreError(path: store.displayName, underlying: error)
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

    /// Runs `body` on a new thread and returns its result.
    private static func onThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = "searchlight-publish"
            // Planning a million records recurses deeper than a secondary thread's default 512 KiB allows.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
