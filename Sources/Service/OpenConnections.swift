import HummingbirdCore
import NIOCore
import Synchronization

/// The connections the server has open: counted into `searchlight_open_connections`, and closed all at once
/// when a stop passes its deadline.
final class OpenConnections: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])
    private let metrics: ServiceMetrics

    init(metrics: ServiceMetrics) {
        self.metrics = metrics
    }

    /// Tracks `channel` until it closes.
    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        metrics.openConnections.record(
            channels.withLock { open in
                open[id] = channel
                return open.count
            })
        channel.closeFuture.whenComplete { [self] _ in
            metrics.openConnections.record(
                channels.withLock { open in
                    open[id] = nil
                    return open.count
                })
        }
    }

    /// Closes every connection still open and returns how many there were.
    @discardableResult
    func closeAll() -> Int {
        let open = channels.withLock { Array($0.values) }
        for channel in open { channel.close(promise: nil) }
        metrics.connectionsClosedAtShutdown.increment(by: open.count)
        return open.count
    }
}

/// `--max-connections`: Hummingbird stops accepting while this many connections are open, so further
/// connections wait in the listen queue; each time the limit is reached it is counted
/// (`searchlight_connection_limit_reached_total`).
struct ConnectionLimit: AvailableConnectionsDelegate {
    let maximum: Int
    let metrics: ServiceMetrics
    private var count = 0

    init(maximum: Int, metrics: ServiceMetrics) {
        self.maximum = maximum
        self.metrics = metrics
    }

    mutating func connectionOpened() {
        count += 1
        if count == maximum { metrics.connectionLimitReached.increment() }
    }

    mutating func connectionClosed() {
        count -= 1
    }

    func isAcceptingNewConnections() -> Bool {
        count < maximum
    }
}
