import DequeModule
import Foundation
import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What donation imports may hold and use, so a burst of uploads never starves the searches.
///
/// - **Memory**: a donation reserves its size (its `Content-Length`, else the largest body allowed; at least
///   ``minimumReservation``) before its body is read, and gives it back when it is answered. One that would
///   pass ``ServiceConfiguration/maxDonationMemoryBytes`` is refused at once (503 with `Retry-After`), so
///   the bodies held, received or waiting, stay within the budget.
/// - **CPU**: at most ``ServiceConfiguration/maxConcurrentImports`` imports run at once (parsing, the
///   bundle check, the store's writes); the others wait their turn in arrival order. Parsing and checking
///   run on the gate's own threads, never on Swift's cooperative pool (the threads that answer searches)
///   nor on NIO's event loops; the importer prepares records on a thread of its own.
/// - **Giving memory back**: glibc keeps what a burst freed for reuse, so once the last donation of a burst
///   that held at least ``trimThreshold`` bytes is answered, `malloc_trim(0)` returns the free pages to the
///   system (on the gate's threads).
final class DonationGate: Sendable {
    private struct State {
        var heldBytes = 0
        var reservations = 0
        var running = 0
        var waiting: Deque<CheckedContinuation<Void, Never>> = []
        /// Bytes reserved since the gate was last idle.
        var burstBytes = 0
    }

    private let state = Mutex(State())
    private let maxBytes: Int
    private let maxRunning: Int
    private let metrics: ServiceMetrics
    /// The threads that parse and check donation bodies.
    let threads: NIOThreadPool

    /// The least a donation reserves: a few bytes of body still cost a request's worth of memory.
    static let minimumReservation = 64 << 10
    /// A burst that held this many bytes is followed by `malloc_trim`.
    static let trimThreshold = 1 << 20
    /// The `Retry-After` of a refused donation, in seconds.
    static let retryAfterSeconds = 2

    /// A gate with `configuration`'s limits; its threads run until ``shutDown()``.
    init(configuration: ServiceConfiguration, metrics: ServiceMetrics) {
        maxBytes = configuration.maxDonationMemoryBytes
        maxRunning = max(1, configuration.maxConcurrentImports)
        self.metrics = metrics
        threads = NIOThreadPool(numberOfThreads: maxRunning)
        threads.start()
    }

    /// Stops the gate's threads.
    func shutDown() async {
        try? await threads.shutdownGracefully()
    }

    /// Reserves `bytes` (raised to ``minimumReservation``) for one donation.
    /// - Throws: a 503 ``ServiceError`` with `Retry-After` when the budget cannot hold them.
    func reserve(_ bytes: Int) throws(ServiceError) -> Int {
        let bytes = max(bytes, Self.minimumReservation)
        let admitted = state.withLock { state in
            guard state.heldBytes + bytes <= maxBytes || state.reservations == 0 else { return false }
            state.heldBytes += bytes
            state.reservations += 1
            state.burstBytes += bytes
            return true
        }
        guard admitted else {
            metrics.donationsShed.increment()
            throw ServiceError.saturated(
                "the server is importing as many donations as it can hold; try again shortly",
                retryAfter: Self.retryAfterSeconds)
        }
        metrics.importsInProgress.increment()
        return bytes
    }

    /// Gives back a reservation of `bytes` once its donation is answered (and its body freed).
    func release(_ bytes: Int) {
        let trim = state.withLock { state in
            state.heldBytes -= bytes
            state.reservations -= 1
            guard state.reservations == 0 else { return false }
            defer { state.burstBytes = 0 }
            return state.burstBytes >= Self.trimThreshold
        }
        metrics.importsInProgress.decrement()
        if trim {
            threads.submit { _ in Self.trimHeap() }
        }
    }

    /// Runs `body` in one of the ``ServiceConfiguration/maxConcurrentImports`` turns, waiting for one.
    func withTurn<T>(_ body: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                guard state.running < maxRunning else {
                    state.waiting.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if now { continuation.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if let next = state.waiting.popFirst() { return next }
                state.running -= 1
                return nil
            }
            next?.resume()
        }
        return try await body()
    }

    /// glibc's `malloc_trim(0)`: gives the free pages of every arena back to the system. Looked up at run
    /// time, as Glibc's module map leaves `malloc.h` out.
    private static func trimHeap() {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
            _ = trim(0)
        #endif
    }
}
