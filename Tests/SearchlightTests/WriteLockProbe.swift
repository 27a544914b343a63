import Foundation
import GRDB
import Synchronization

/// Measures how long the writers hold the store's write lock: on a thread of its own, it takes the
/// lock (`BEGIN IMMEDIATE`) and gives it back at once (`ROLLBACK`, nothing written), over and over.
/// The longest time it waited to get the lock is at least the longest write transaction another
/// process ran while it probed — what a crawler's group commit or an import batch would wait too.
final class WriteLockProbe: Sendable {
    /// What the probe saw.
    struct Report: Sendable {
        /// Times the lock was taken.
        var acquisitions = 0
        /// The longest wait for the lock.
        var longestWait: Duration = .zero
        /// When (seconds from the probe's start) the longest wait ended.
        var longestWaitEndedAt = 0.0
        /// Failures, as SQLite or GRDB described them (a wait longer than the busy timeout is one).
        var errors: [String] = []
    }

    private let path: String
    private let report = Mutex(Report())
    private let loop = BackgroundLoop()

    /// Starts probing the store at `path` (which must exist) at once.
    init(path: String) {
        self.path = path
        loop.start { [self] in run() }
    }

    /// Stops after the current probe and returns what it saw.
    func stop() async -> Report {
        await loop.stop()
        return report.withLock { $0 }
    }

    private func run() {
        let origin = ContinuousClock.now
        let queue: DatabaseQueue
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            report.withLock { $0.errors.append("open: \(error)") }
            return
        }
        while !loop.isStopping {
            let started = ContinuousClock.now
            do {
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    try db.execute(sql: "ROLLBACK")
                }
                let now = ContinuousClock.now
                report.withLock {
                    $0.acquisitions += 1
                    if now - started > $0.longestWait {
                        $0.longestWait = now - started
                        $0.longestWaitEndedAt = (now - origin).seconds
                    }
                }
            } catch {
                report.withLock { $0.errors.append("\(error)") }
            }
            // Often enough to catch every long transaction, rarely enough to cost the writers nothing.
            Thread.sleep(forTimeInterval: 0.02)
        }
        try? queue.close()
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }

    /// `12.3 ms`.
    var milliseconds: String { String(format: "%.1f ms", seconds * 1e3) }
}
