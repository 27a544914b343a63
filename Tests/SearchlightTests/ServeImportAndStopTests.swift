import FixtureServer
import Foundation
import Testing

/// `serve`'s donation imports under pressure: a donation past the memory budget is shed with 503 and
/// `Retry-After` before its body is read.
@Suite("serve sheds donations past its budget")
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
}

/// A raw connection handed from one test thread to another (used by one at a time).
struct UncheckedConnection: @unchecked Sendable {
    let connection: RawHTTPConnection

    init(_ connection: RawHTTPConnection) {
        self.connection = connection
    }
}
