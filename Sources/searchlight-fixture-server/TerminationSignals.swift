import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into an awaitable event, so the server can stop cleanly instead of being killed.
///
/// The default dispositions are replaced by `SIG_IGN` first (a signal then no longer terminates the process) and
/// Dispatch sources deliver the signals on a queue of their own. Not `Sendable`: the command's `run()` creates,
/// awaits and releases it.
final class TerminationSignals {
    /// The signals that end the server.
    static let handled: [Int32] = [SIGINT, SIGTERM]

    /// The signal numbers as they arrive.
    private let stream: AsyncStream<Int32>

    /// The Dispatch sources; kept alive for the life of this object, which is the life of the command.
    private let sources: [any DispatchSourceSignal]

    /// Starts listening for the signals; do this before announcing readiness so no early signal is lost.
    init() {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "searchlight-fixture-server.signals")
        self.stream = stream
        self.sources = Self.handled.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources {
            source.cancel()
        }
    }

    /// Waits for the first termination signal and returns its number (0 if waiting ended otherwise).
    func next() async -> Int32 {
        for await number in stream {
            return number
        }
        return 0
    }
}
