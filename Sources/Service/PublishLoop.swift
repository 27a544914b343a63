import Foundation
import Index
import Logging
import Metrics
import ServiceLifecycle
import Store

/// The server's own incremental publish (SPEC §6): every interval, when donations arrived over HTTP since
/// the last publish, publishes in the background; searches keep answering from the previous index until the
/// publish commits (one transaction on either engine).
final class PublishLoop: Service, Sendable {
    private let publish: PublishRunner
    private let interval: Duration
    private let logger: Logger
    private let metrics: ServiceMetrics
    private let changes = ChangeMark()

    init(publish: @escaping PublishRunner, interval: Double, metrics: ServiceMetrics, logger: Logger) {
        self.publish = publish
        self.interval = .milliseconds(Int64(max(interval, 0.05) * 1000))
        self.metrics = metrics
        self.logger = logger
    }

    /// Notes that the store changed: the next round publishes.
    func noteChange() async {
        await changes.mark()
    }

    /// Publishes once now if anything changed (also what each round does).
    func publishIfChanged() async {
        guard await changes.take() else { return }
        do {
            let summary = try await publish()
            // The publisher logs its own summary line.
            metrics.lastPublishTime.record(summary.publishedAt)
            metrics.publishes.increment()
        } catch {
            // Published at the next round instead: the donations are stored.
            await changes.mark()
            metrics.publishFailures.increment()
            logger.error("publish failed", metadata: ["reason": "\(error)"])
        }
    }

    func run() async throws {
        // Shutdown stops the waiting, not a publish that has started: it commits or rolls back whole.
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: self.interval) } catch { break }
                await self.publishIfChanged()
            }
        }
        // Donations of the last interval are published before the server exits (the requests have drained:
        // services stop in reverse order); the mark lives only in this process.
        await publishIfChanged()
    }
}

/// Runs one publish of the store and returns its summary.
package typealias PublishRunner = @Sendable () async throws -> PublishSummary

/// Whether the store changed since the last publish began.
private actor ChangeMark {
    private var changed = false

    func mark() { changed = true }

    /// Whether it changed, clearing the mark.
    func take() -> Bool {
        defer { changed = false }
        return changed
    }
}
