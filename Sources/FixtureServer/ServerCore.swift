import Foundation
import Synchronization

/// The state shared by the server's threads and its actor: behaviours, the request log, counters, and the threads
/// still running.
///
/// Connection threads block in `poll`, so they cannot await the actor; they update this state under a mutex
/// instead, and the actor's methods read it the same way. Every critical section is short and never blocks.
final class ServerCore: Sendable {
    /// The folder served for GET and HEAD, or nil for none.
    let siteRoot: URL?

    /// Wakes every waiting thread when the server stops.
    let stopSignal: StopSignal

    /// Everything that changes while the server runs.
    private let state = Mutex(State())

    private struct State {
        var behaviours: [String: FixtureBehaviour] = [:]
        /// How long a site file waits before it is sent (a slow site), if at all.
        var siteFileDelay: Duration?
        /// How many requests each path with a `.sequence` behaviour has answered.
        var sequencePositions: [String: Int] = [:]
        var log: [FixtureRequest] = []
        var openConnections = 0
        var peakConnections = 0
        var totalConnections = 0
        /// The connections whose current request is in progress: arrived, and its answer not yet all handed to the
        /// socket.
        var answering: Set<Int> = []
        var peakRequests = 0
        var liveThreads = 0
        var isStopping = false
        /// `stop()` calls waiting for `liveThreads` to reach zero.
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Creates the shared state for a server serving `siteRoot`.
    init(siteRoot: URL?) throws(FixtureServerError) {
        self.siteRoot = siteRoot
        self.stopSignal = try StopSignal()
    }

    // MARK: Behaviours

    /// Sets or replaces the behaviour for `path`, restarting any sequence there.
    func setBehaviour(_ behaviour: FixtureBehaviour?, for path: String) {
        state.withLock {
            $0.behaviours[path] = behaviour
            $0.sequencePositions[path] = nil
        }
    }

    /// Makes every site file wait `delay` before it is sent (`nil`: none).
    func setSiteFileDelay(_ delay: Duration?) {
        state.withLock { $0.siteFileDelay = delay }
    }

    /// How long a site file waits before it is sent.
    var siteFileDelay: Duration? {
        state.withLock { $0.siteFileDelay }
    }

    /// The 0-based position in a `.sequence` behaviour for the next request to `path`, advancing it.
    func nextSequencePosition(for path: String) -> Int {
        state.withLock {
            let position = $0.sequencePositions[path, default: 0]
            $0.sequencePositions[path] = position + 1
            return position
        }
    }

    // MARK: Requests and connections

    /// Records an accepted connection and returns its 1-based identifier.
    func connectionOpened() -> Int {
        state.withLock {
            $0.totalConnections += 1
            $0.openConnections += 1
            $0.peakConnections = max($0.peakConnections, $0.openConnections)
            return $0.totalConnections
        }
    }

    /// Records that a connection has closed.
    func connectionClosed() {
        state.withLock { $0.openConnections -= 1 }
    }

    /// Logs `request`, counts it as in progress on its connection, and returns the behaviour set for its route, if
    /// any.
    func requestStarted(_ request: FixtureRequest) -> FixtureBehaviour? {
        state.withLock {
            $0.log.append(request)
            $0.answering.insert(request.connectionID)
            $0.peakRequests = max($0.peakRequests, $0.answering.count)
            return $0.behaviours[request.route]
        }
    }

    /// Records that the request in progress on connection `id` is answered, or abandoned; a request already counted
    /// out stays out.
    ///
    /// A connection calls this just before it hands the last bytes of an answer to the socket: a client that has
    /// read the whole answer may send its next request on another connection before this thread runs again, and
    /// that request must not find this one still counted.
    func requestFinished(onConnection id: Int) {
        state.withLock { _ = $0.answering.remove(id) }
    }

    /// A snapshot of the counters and the log.
    func statistics() -> (log: [FixtureRequest], peakConnections: Int, peakRequests: Int, total: Int, open: Int) {
        state.withLock {
            ($0.log, $0.peakConnections, $0.peakRequests, $0.totalConnections, $0.openConnections)
        }
    }

    /// Empties the log and sets the peaks back to the current values.
    func resetStatistics() {
        state.withLock {
            $0.log = []
            $0.peakConnections = $0.openConnections
            $0.peakRequests = $0.answering.count
        }
    }

    // MARK: Threads

    /// Runs `body` on a new thread that the server waits for in `stop()`.
    func spawn(named name: String, _ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.liveThreads += 1 }
        let thread = Thread { [self] in
            body()
            threadFinished()
        }
        thread.name = name
        // Connection threads only parse small heads and copy buffers; a small stack keeps hundreds of them cheap.
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Counts a thread out and, when it was the last one of a stopping server, resumes the `stop()` callers.
    private func threadFinished() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.liveThreads -= 1
            guard state.liveThreads == 0, state.isStopping else { return [] }
            defer { state.stopWaiters = [] }
            return state.stopWaiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Signals every thread to finish and waits until all have; safe to call any number of times.
    func stop() async {
        state.withLock { $0.isStopping = true }
        stopSignal.fire()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state -> Bool in
                if state.liveThreads == 0 {
                    return true
                }
                state.stopWaiters.append(continuation)
                return false
            }
            if finished {
                continuation.resume()
            }
        }
    }
}
