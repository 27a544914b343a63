import Foundation
import GRDB
import Synchronization

/// A searcher: full-text queries against the public index, one after another, on a thread of its own
/// with its own read-only connection, until stopped. Every query's time is measured from the moment it
/// asked for a read transaction to the moment its last row arrived, so a reader held up by a writer
/// (which WAL mode must never do) shows as a long time; failures are collected, never thrown.
final class SearchLoop: Sendable {
    /// What the searcher saw.
    struct Report: Sendable {
        /// Queries that completed.
        var queries = 0
        /// Each completed query's time, in completion order.
        var durations: [Duration] = []
        /// Failures (opening the store or a query), as SQLite or GRDB described them.
        var errors: [String] = []
        /// The largest match count one query saw.
        var mostMatches = 0
        /// The longest time from asking for a read transaction to its first row (a trivial statement):
        /// the wait for a snapshot, which WAL mode keeps free of writers.
        var longestSnapshotWait: Duration = .zero

        /// The longest time one query took, from asking for a snapshot to its last row.
        var longest: Duration { durations.max() ?? .zero }

        /// The `fraction` quantile of the query times (0.5 the median, 0.99 the 99th percentile).
        func quantile(_ fraction: Double) -> Duration {
            let sorted = durations.sorted()
            guard !sorted.isEmpty else { return .zero }
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// FTS5 queries of the words the generated site and donations use: plain, prefix, AND, OR.
    static let queries = ["lemon", "ta*", "rye loaf", "recipe", "fig OR walnut", "pes*"]

    private let path: String
    private let report = Mutex(Report())
    private let loop = BackgroundLoop()

    /// Starts searching the store at `path` (which must exist with its schema) at once.
    init(path: String) {
        self.path = path
        loop.start { [self] in run() }
    }

    /// Asks the loop to stop after its current query and returns what it saw.
    func stop() async -> Report {
        await loop.stop()
        return report.withLock { $0 }
    }

    private func run() {
        let queue: DatabaseQueue
        do {
            var configuration = Configuration()
            configuration.readonly = true
            // Only WAL's obscure cases (a recovery after a crash) may make a reader wait; a wait would
            // show in the measured times.
            configuration.busyMode = .timeout(30)
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            report.withLock { $0.errors.append("open: \(error)") }
            return
        }
        var round = 0
        while !loop.isStopping {
            let query = Self.queries[round % Self.queries.count]
            round += 1
            let started = ContinuousClock.now
            do {
                let (matches, snapshotWait) = try queue.read { db in
                    _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM setting")
                    let snapshotWait = ContinuousClock.now - started
                    let count =
                        try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM public_fts WHERE public_fts MATCH ?", arguments: [query])
                        ?? 0
                    // The shape a search takes: ranked by bm25 plus engagement, the top ten with their items.
                    _ = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT public_item.unique_identifier, public_item.title, public_item.item_json
                            FROM public_fts JOIN public_item ON public_item.id = public_fts.rowid
                            WHERE public_fts MATCH ? ORDER BY bm25(public_fts) - public_item.boost LIMIT 10
                            """,
                        arguments: [query])
                    return (count, snapshotWait)
                }
                let elapsed = ContinuousClock.now - started
                report.withLock {
                    $0.queries += 1
                    $0.durations.append(elapsed)
                    $0.mostMatches = max($0.mostMatches, matches)
                    $0.longestSnapshotWait = max($0.longestSnapshotWait, snapshotWait)
                }
            } catch {
                report.withLock { $0.errors.append("\(query): \(error)") }
            }
            // A searcher, not a spinner: leave the two cores to the writers between queries.
            Thread.sleep(forTimeInterval: 0.005)
        }
        try? queue.close()
    }
}
