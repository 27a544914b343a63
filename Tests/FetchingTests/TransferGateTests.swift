import Testing

@testable import Fetching

@Suite("Transfer gate")
struct TransferGateTests {
    @Test("Global and per-host caps hold and hosts take turns")
    func caps() {
        var gate = TransferGate<String>(globalLimit: 3, perHostLimit: 2)
        for index in 0..<4 { gate.enqueue("a\(index)", host: "a") }
        for index in 0..<4 { gate.enqueue("b\(index)", host: "b") }
        var started: [String] = []
        while let (job, _) = gate.next() { started.append(job) }
        #expect(started == ["a0", "b0", "a1"])
        #expect(gate.runningCount == 3)
        #expect(gate.running(for: "a") == 2)
        gate.finished(host: "a")
        // "a" is at its cap again only after it got its turn; "b" is next in line.
        let next = gate.next()
        #expect(next?.job == "b1")
        #expect(gate.next() == nil)
        gate.finished(host: "b")
        gate.finished(host: "b")
        #expect(gate.next()?.job == "a2")
        #expect(gate.queuedCount == 3)
    }

    @Test("Queued jobs can be removed and drained")
    func removal() {
        var gate = TransferGate<Int>(globalLimit: 1, perHostLimit: 1)
        gate.enqueue(1, host: "h")
        gate.enqueue(2, host: "h")
        gate.enqueue(3, host: "h")
        #expect(gate.next()?.job == 1)
        #expect(gate.removeQueued(host: "h") { $0 == 2 } == 2)
        #expect(gate.removeQueued(host: "h") { $0 == 9 } == nil)
        gate.finished(host: "h")
        #expect(gate.next()?.job == 3)
        gate.enqueue(4, host: "x")
        #expect(gate.drainQueued() == [4])
        #expect(gate.queuedCount == 0)
    }
}
