import FixtureServer
import Foundation
import GRDB
import Synchronization
import Testing

/// `serve`'s donation imports and background publish under pressure: a donation past the memory budget is
/// shed with 503 and `Retry-After` before its body is read, and a stop lets a publish that has started
/// finish (or, past the deadline, stops its child cleanly) instead of killing it.
@Suite("serve sheds donations past its budget and stops a publish cleanly")
struct ServeImportAndStopTests {
    @Test("a donation that would pass --max-donation-memory is answered 503 with Retry-After; then it fits")
    func donationBudget() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(fixture.storeArguments + ["--max-donation-memory", "300000"])
        let port = server.port
        let token = fixture.token
        let line = try ServeFixture.activity("7", title: "Budget plum", description: "held") + "\n"
        let first = Array((line + String(repeating: " ", count: 200_000 - line.utf8.count)).utf8)
        // The first donation holds 200,000 bytes of the budget while its body is still arriving.
        let holder = try await onOwnThread {
            let connection = try RawHTTPConnection(port: port, timeoutSeconds: 30)
            try connection.write(ServeFixture.donationHead(length: first.count, token: token))
            try connection.write(Array(first[0..<1000]))
            return UncheckedConnection(connection)
        }
        _ = try await server.poll("/metrics") { $0.body.contains("searchlight_imports_in_progress 1") }
        let shed = try await onOwnThread {
            let connection = try RawHTTPConnection(port: port, timeoutSeconds: 30)
            try connection.write(ServeFixture.donationHead(length: 200_000, token: token))
            let answer = try connection.readResponse()
            return (answer.status, answer.header("retry-after"), answer.header("connection"), answer.text)
        }
        #expect(shed.0 == 503)
        #expect(shed.1.flatMap(Int.init).map { $0 > 0 } == true, "Retry-After")
        #expect(shed.2 == "close")
        #expect(shed.3.contains("\"error\""))
        let accepted = try await onOwnThread {
            try holder.connection.write(Array(first[1000...]))
            return try holder.connection.readResponse().status
        }
        #expect(accepted == 200)
        #expect(try await server.metric("searchlight_donations_shed_total") == 1)
        #expect(try await fixture.store.lines("SELECT count(*) FROM activity WHERE title = 'Budget plum'") == ["1"])
        #expect(await server.stop() == 0)
    }

    @Test("SIGTERM lets a publish that has started finish: its child is not killed, and it publishes once")
    func stopWaitsForPublish() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(fixture.storeArguments + ["--publish-interval", "1"])
        // A donation, then the store's write lock, held by the test: the server's next publish starts and
        // waits for the lock. Should that publish commit before the lock is taken, another donation goes.
        var lock: WriteLockHolder?
        for attempt in 1...5 {
            let title = "Quince paste \(attempt)"
            let donation = try ServeFixture.activity("8\(attempt)", title: title, description: "stop")
            let posted = try await server.request(
                "/api/donations", method: "POST", body: Data(donation.utf8),
                headers: ["Authorization": "Bearer \(fixture.token)"])
            #expect(posted.status == 200)
            let holder = WriteLockHolder(path: fixture.store.argument, countingTitle: title)
            if try await holder.acquired() == 0 {
                lock = holder
                break
            }
            holder.release()
        }
        let held = try #require(lock, "every publish committed before the lock was taken")
        defer { held.release() }
        let child = try await firstChild(of: server)
        server.process.terminate()
        #expect(try await server.waitForLog("the publish under way may finish"), "\(server.process.standardError)")
        #expect(processIsRunning(child), "the publish child was killed by the stop")
        held.release()
        #expect(await server.waitForExit(within: .seconds(120)) == 0)
        let log = server.process.standardError
        #expect(!log.contains("publish failed") && !log.contains("signaled"), "\(log)")
        let found = try await CommandRunner.run(["search", "quince", "--json"] + fixture.storeArguments)
        #expect(try jsonObject(found.standardOutput)["total"] as? Int ?? 0 >= 1)
    }

    @Test("past --shutdown-timeout a publish still running is stopped with SIGTERM and rolls back; exit 0")
    func stopEndsPublishAtDeadline() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        // No round publishes during the test: the stop's own last publish is the one that waits.
        let server = try await ServeProcess(
            fixture.storeArguments + ["--publish-interval", "600", "--shutdown-timeout", "1"])
        let donation = try ServeFixture.activity("8", title: "Quince paste", description: "stop")
        let posted = try await server.request(
            "/api/donations", method: "POST", body: Data(donation.utf8),
            headers: ["Authorization": "Bearer \(fixture.token)"])
        #expect(posted.status == 200)
        let lock = WriteLockHolder(path: fixture.store.argument, countingTitle: "Quince paste")
        defer { lock.release() }
        #expect(try await lock.acquired() == 0)
        // The lock is held throughout: only the deadline can end the publish.
        #expect(await server.stop(within: .seconds(120)) == 0)
        lock.release()
        #expect(server.process.standardError.contains("publish stopped at the stop deadline"))
        let found = try await CommandRunner.run(["search", "quince", "--json"] + fixture.storeArguments)
        #expect(try jsonObject(found.standardOutput)["total"] as? Int == 0, "a stopped publish committed")
        #expect(try await CommandRunner.run(["publish"] + fixture.storeArguments).status == 0)
        let later = try await CommandRunner.run(["search", "quince", "--json"] + fixture.storeArguments)
        #expect(try jsonObject(later.standardOutput)["total"] as? Int == 1, "the donation was not kept")
    }

    /// The server's first child process (its publish), waited for at most a minute.
    private func firstChild(of server: ServeProcess) async throws -> Int32 {
        for _ in 0..<1200 {
            if let child = server.childProcesses.first { return child }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServeProcess.ServeFailure(message: "no publish child started: \(server.process.standardError)")
    }
}

/// A raw connection handed from one test thread to another (used by one at a time).
struct UncheckedConnection: @unchecked Sendable {
    let connection: RawHTTPConnection

    init(_ connection: RawHTTPConnection) {
        self.connection = connection
    }
}

/// Holds a SQLite store's write lock (`BEGIN IMMEDIATE`) on a thread of its own until released, so a writer
/// in another process waits for it; counts the published items titled `countingTitle` once it holds it.
final class WriteLockHolder: Sendable {
    private let taken = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)
    private let outcome = Mutex<Result<Int, ServeProcess.ServeFailure>?>(nil)

    init(path: String, countingTitle title: String) {
        Thread { [self] in
            do {
                var configuration = Configuration()
                configuration.busyMode = .timeout(60)
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    let count =
                        try Int.fetchOne(
                            db, sql: "SELECT count(*) FROM public_item WHERE title = ?", arguments: [title])
                        ?? 0
                    outcome.withLock { $0 = .success(count) }
                    taken.signal()
                    released.wait()
                    try db.execute(sql: "ROLLBACK")
                }
            } catch {
                outcome.withLock { $0 = .failure(ServeProcess.ServeFailure(message: "\(error)")) }
                taken.signal()
            }
        }.start()
    }

    /// Waits until the lock is held; returns the count of published items with the title.
    func acquired() async throws -> Int {
        let taken = taken
        try await onOwnThread { taken.wait() }
        return try outcome.withLock { $0 }?.get() ?? 0
    }

    /// Gives the lock back (again: no effect).
    func release() {
        released.signal()
    }
}
