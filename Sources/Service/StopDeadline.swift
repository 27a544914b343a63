import Logging
import ServiceLifecycle
import Synchronization

/// The deadline of a stop: SIGINT or SIGTERM starts it, ``ServiceConfiguration/shutdownTimeoutSeconds``
/// before the end. Until then the server lets requests in flight finish (and the publish under way, see
/// ``PublishLoop``); at the deadline the connections still open are closed, so a client trickling a body or
/// not reading an answer cannot hold the stop.
final class StopDeadline: Sendable {
    private let timeout: Duration
    private let connections: OpenConnections
    private let logger: Logger
    private let state = Mutex<(deadline: ContinuousClock.Instant?, closer: Task<Void, Never>?)>((nil, nil))

    init(timeout: Duration, connections: OpenConnections, logger: Logger) {
        self.timeout = timeout
        self.connections = connections
        self.logger = logger
    }

    /// When the stop's time is up, once a stop has begun.
    var deadline: ContinuousClock.Instant? {
        state.withLock { $0.deadline }
    }

    /// Begins the stop (once): at the deadline, closes the connections still open.
    func begin() {
        state.withLock { state in
            guard state.deadline == nil else { return }
            let deadline = ContinuousClock.now + timeout
            state.deadline = deadline
            state.closer = Task { [connections, logger] in
                do { try await Task.sleep(until: deadline) } catch { return }
                let closed = connections.closeAll()
                if closed > 0 {
                    logger.warning("stop deadline reached: connections closed", metadata: ["connections": "\(closed)"])
                }
            }
        }
    }

    /// Ends the stop's timer (the server has stopped).
    func end() {
        state.withLock { $0.closer?.cancel() }
    }

    /// Returns once the stop's deadline has passed (at once when no stop has begun); throws
    /// `CancellationError` when cancelled first.
    func waitForDeadline() async throws {
        if let deadline { try await Task.sleep(until: deadline) }
    }
}

/// The application, run so that a stop begins ``StopDeadline``'s clock at once: Hummingbird's own services
/// hear of the stop one after another (the server first, then the publish), but the deadline counts from
/// the signal.
struct BoundedStopService: Service {
    let application: any Service
    let stop: StopDeadline

    func run() async throws {
        defer { stop.end() }
        try await withGracefulShutdownHandler {
            try await application.run()
        } onGracefulShutdown: {
            stop.begin()
        }
    }
}
