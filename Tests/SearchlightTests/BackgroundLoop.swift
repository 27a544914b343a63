import Foundation
import Synchronization

/// A loop on a thread of its own (blocking SQLite calls stay off the cooperative pool), run until
/// ``stop()``: the body checks ``isStopping`` between rounds.
final class BackgroundLoop: Sendable {
    private let stopRequested = Mutex(false)
    private let finished = AsyncStream<Void>.makeStream()

    /// Runs `body` on a new thread at once.
    func start(_ body: @escaping @Sendable () -> Void) {
        let finished = self.finished
        let thread = Thread {
            body()
            finished.continuation.finish()
        }
        thread.start()
    }

    /// Whether ``stop()`` was called.
    var isStopping: Bool { stopRequested.withLock { $0 } }

    /// Asks the body to stop and waits until it returned.
    func stop() async {
        stopRequested.withLock { $0 = true }
        for await _ in finished.stream {}
    }
}
