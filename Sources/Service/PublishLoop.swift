import Foundation
import Index
import Logging
import Metrics
import ServiceLifecycle
import Store

/// The server's own incremental publish (SPEC §6): every interval, when donations arrived over HTTP since
/// the last publish, publishes in the background; searches keep answering from the previous index until the
/// publish commits (one transaction on either engine).
///
/// A stop ends the waiting between rounds, never a publish that has started: that publish, and then a last
/// one for what arrived since, may run until the stop's deadline (``StopDeadline``). A publish still running
/// then is cancelled; the executable's publish child (`ChildPublish`) is then sent SIGTERM, and its
/// transaction rolls back whole, so the store keeps the previous index and the donations stay stored for
/// the next publish.
final class PublishLoop: Service, Sendable {
    private let publish: PublishRunner
    private let interval: Duration
    private let stop: StopDeadline
    private let logger: Logger
    private let metrics: ServiceMetrics
    private let changes = ChangeMark()

    init(
        publish: @escaping PublishRunner, interval: Double, stop: StopDeadline, metrics: ServiceMetrics, logger: Logger
    ) {
        self.publish = publish
        self.interval = .milliseconds(Int64(max(interval, 0.05) * 1000))
        self.stop = stop
        self.metrics = metrics
        self.logger = logger
    }

    /// Notes that the store changed: the next round publishes.
    func noteChange() async {
        await changes.mark()
    }

    /// Publishes once now if anything changed (also what each round does), unless the stop's deadline passes
    /// first. Returns whether the deadline ended it.
    @discardableResult
    func publishIfChanged() async -> Bool {
        guard await changes.take() else { return false }
        let outcome = await withTaskGroup(of: Result<PublishSummary, any Error>?.self) { group in
            group.addTask { [publish] in
                do { return .success(try await publish()) } catch { return .failure(error) }
            }
            group.addTask { [stop, logger] in
                do {
                    // This service hears of a stop after the server has stopped; the deadline counts from the
                    // signal.
                    try await gracefulShutdown()
                    logger.info("stopping: the publish under way may finish until the stop deadline")
                    try await stop.waitForDeadline()
                } catch {
                    return nil  // the publish ended first
                }
                logger.info("stop deadline reached: stopping the publish under way")
                return .failure(CancellationError())
            }
            // The publish's result, or at the deadline the waiter's; the other task is then cancelled (the
            // publish only at the deadline) and waited for.
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch outcome {
        case .success(let summary):
            // The publisher logs its own summary line.
            metrics.lastPublishTime.record(summary.publishedAt)
            metrics.publishes.increment()
            return false
        case .failure(let error):
            // Published at the next round (or the next publish after a restart): the donations are stored.
            await changes.mark()
            metrics.publishFailures.increment()
            if error is CancellationError {
                logger.warning("publish stopped at the stop deadline; the donations are published by the next publish")
                return true
            }
            logger.error("publish failed", metadata: ["reason": "\(error)"])
            return false
        case nil:
            return false
        }
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
            } catch {
                break
            }
            // Not under `cancelWhenGracefulShutdown`: a stop never interrupts a publish that has started.
            if await publishIfChanged() { return }
        }
        // Donations of the last interval are published before the server exits (the requests have drained:
        // services stop in reverse order); the mark lives only in this process. Not when the deadline has
        // passed already: that publish would be stopped as soon as it started.
        if let deadline = stop.deadline, deadline <= .now, await changes.isMarked {
            logger.warning("stop deadline reached: the last interval's donations are published by the next publish")
            return
        }
        await publishIfChanged()
    }
}

/// Runs one publish of the store and returns its summary.
package typealias PublishRunner = @Sendable () async throws -> PublishSummary

/// Whether the store changed since the last publish began.
private actor ChangeMark {
    private var changed = false

    func mark() { changed = true }

    /// Whether it changed, keeping the mark.
    var isMarked: Bool { changed }

    /// Whether it changed, clearing the mark.
    func take() -> Bool {
        defer { changed = false }
        return changed
    }
}
