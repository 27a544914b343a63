import Foundation
import Testing

@testable import Index

/// The hand-over between an import's reading thread and its writing thread.
@Suite struct BatchChannelTests {
    struct Failure: Error, Equatable {}

    /// Batches arrive whole and in order, the producer never runs more than `capacity` ahead, and an
    /// error comes after the batches sent before it.
    @Test func ordersBoundsAndFailsLast() throws {
        let channel = BatchChannel<Int>(capacity: 2)
        let sent = Counter()
        let producer = Thread {
            for value in 0..<50 {
                guard channel.send(value) else { return }
                sent.increment()
            }
            channel.finish(throwing: Failure())
        }
        producer.start()
        var received: [Int] = []
        do {
            while let value = try channel.receive() {
                // Everything sent beyond what was received fits in the channel (plus the one being sent).
                #expect(sent.value - received.count <= 3)
                received.append(value)
                if value % 10 == 0 { Thread.sleep(forTimeInterval: 0.005) }
            }
            Issue.record("the producer's error was not thrown")
        } catch let error as Failure {
            #expect(error == Failure())
        }
        #expect(received == Array(0..<50))
    }

    /// Cancelling wakes a producer waiting on a full channel, and its later sends are refused.
    @Test func cancelStopsAWaitingProducer() throws {
        let channel = BatchChannel<Int>(capacity: 1)
        let stopped = DispatchSemaphore(value: 0)
        let refusedAt = Counter()
        let producer = Thread {
            for value in 0..<1_000 where !channel.send(value) {
                refusedAt.set(value)
                break
            }
            stopped.signal()
        }
        producer.start()
        #expect(try channel.receive() == 0)
        channel.cancel()
        #expect(stopped.wait(timeout: .now() + 10) == .success, "the producer is still waiting")
        #expect(refusedAt.value > 0 && refusedAt.value <= 3)
    }

    /// An `Int` shared between two test threads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = 0
        var value: Int { lock.withLock { stored } }
        func increment() { lock.withLock { stored += 1 } }
        func set(_ value: Int) { lock.withLock { stored = value } }
    }
}
