import Foundation
import Testing

@testable import Store

/// The hand-over between a reading thread and a writing task or thread.
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

    /// Awaiting the next batch gives the same batches in the same order, then the producer's error; and it
    /// suspends the task rather than blocking its thread: with several consumers waiting on an executor of
    /// one thread, a task that lets the producers start still runs on that thread (the producers start on
    /// their own after 10 s, so a blocking wait fails the test instead of hanging it).
    @Test func nextSuspendsUntilABatchArrives() async throws {
        let executor = OneThreadExecutor()
        defer { executor.stop() }
        let consumers = 4
        let gate = DispatchSemaphore(value: 0)
        let startedByTimeout = Counter()
        let results = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<consumers {
                let channel = BatchChannel<Int>(capacity: 2)
                let producer = Thread {
                    if gate.wait(timeout: .now() + 10) == .timedOut { startedByTimeout.increment() }
                    for value in 0..<20 where !channel.send(value) { return }
                    channel.finish(throwing: Failure())
                }
                producer.start()
                group.addTask(executorPreference: executor) {
                    var received: [Int] = []
                    do {
                        while let value = try await channel.next() { received.append(value) }
                    } catch is Failure {
                        return received
                    }
                    return []
                }
            }
            group.addTask(executorPreference: executor) {
                for _ in 0..<consumers { gate.signal() }
                return Array(0..<20)
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: Array(0..<20), count: consumers + 1))
        #expect(startedByTimeout.value == 0, "the gate task did not run while the consumers waited")
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

/// A task executor that runs its jobs one at a time on one thread of its own, until stopped.
final class OneThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isStopped = false

    init() {
        let thread = Thread { [self] in run() }
        thread.name = "one-thread-executor"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        isStopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty, !isStopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
