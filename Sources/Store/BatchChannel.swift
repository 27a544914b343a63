import Foundation

/// A bounded hand-over of batches from one producing thread to one consumer: the producer waits while
/// `capacity` batches are waiting, the consumer while none is (a thread in ``receive()``, a task in
/// ``next()``). An import reads and prepares records on one thread while the store writes the previous
/// batch; a report reads SQLite's rows on one thread while a task writes them out.
///
/// All state is behind one `NSCondition` (a mutex and its condition variable), which is what makes
/// the `@unchecked Sendable` sound.
package final class BatchChannel<Batch: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var batches: [Batch] = []
    private var isFinished = false
    private var isCancelled = false
    private var failure: (any Error)?
    /// The consumer suspended in ``next()`` until a batch or the end arrives.
    private var waiting: CheckedContinuation<Void, Never>?

    /// A channel holding at most `capacity` (at least 1) batches at a time.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// A channel fed by a new thread named `name`, which runs `produce` with a `send` for its batches and
    /// then finishes the channel, with `produce`'s error if it throws one. `send` throws once the
    /// consumer has cancelled, which ends `produce` quietly.
    package static func produced(
        by name: String, capacity: Int = 2,
        _ produce: @escaping @Sendable (_ send: (Batch) throws -> Void) throws -> Void
    ) -> BatchChannel {
        let channel = BatchChannel(capacity: capacity)
        let thread = Thread {
            do {
                try produce { batch in
                    guard channel.send(batch) else { throw Cancelled() }
                }
                channel.finish()
            } catch is Cancelled {
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        thread.name = name
        thread.start()
        return channel
    }

    /// The stop signal of a producer whose consumer cancelled.
    private struct Cancelled: Error {}

    /// Hands `batch` over, waiting while the channel is full. Returns `false`, dropping the batch, once
    /// the consumer has cancelled: the producer should stop.
    package func send(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity, !isCancelled { condition.wait() }
        guard !isCancelled else { return false }
        batches.append(batch)
        condition.broadcast()
        wakeConsumer()
        return true
    }

    /// The producer is done; with `error`, the consumer throws it after the batches sent before it.
    package func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        isFinished = true
        failure = error
        condition.broadcast()
        wakeConsumer()
    }

    /// The next batch in the order sent, waiting for one; `nil` once the producer finished and every
    /// batch was received.
    /// - Throws: the error the producer finished with, after its earlier batches.
    package func receive() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, !isFinished { condition.wait() }
        if !batches.isEmpty {
            condition.broadcast()
            return batches.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// The consumer stops: waiting and later sends return `false`, and waiting batches are dropped.
    package func cancel() {
        condition.lock()
        defer { condition.unlock() }
        isCancelled = true
        batches.removeAll()
        condition.broadcast()
        wakeConsumer()
    }

    /// The next batch in the order sent, as ``receive()`` gives it, but suspending the task instead of
    /// blocking its thread while none is there: an import awaiting its store does not hold a thread of the
    /// cooperative pool while it waits for the reader.
    /// - Throws: the error the producer finished with, after its earlier batches.
    package func next() async throws -> Batch? {
        await withCheckedContinuation { resumeWhenReady($0) }
        return try receive()
    }

    /// Resumes `continuation` at once when a batch or the end is there, else when one arrives.
    private func resumeWhenReady(_ continuation: CheckedContinuation<Void, Never>) {
        condition.lock()
        defer { condition.unlock() }
        if !batches.isEmpty || isFinished || isCancelled {
            continuation.resume()
        } else {
            waiting = continuation
        }
    }

    /// Resumes the consumer suspended in ``next()``, if any; called with the lock held.
    private func wakeConsumer() {
        waiting?.resume()
        waiting = nil
    }
}
