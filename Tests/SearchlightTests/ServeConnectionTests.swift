import FixtureServer
import Foundation
import Testing

/// What one client can hold of `serve`, over raw sockets: a refused upload's connection is closed rather
/// than drained, a request head trickled in is cut off, a body trickled below the minimum rate is answered 408, a client that does not read is
/// closed after the write timeout, `--max-connections` holds, and a stop waits a bounded time.
///
/// No assertion is on a duration: each waits for a condition (an answer, a close, a metric, an exit), with a
/// generous hang guard that only a missing behaviour reaches.
@Suite("serve bounds what a client can hold")
struct ServeConnectionTests {
    @Test("a refusal (401, 413) closes the connection at once instead of reading the rest of the body")
    func refusalsClose() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        // Longer than the client's wait: only a close by the server ends the read.
        let server = try await ServeProcess(
            fixture.storeArguments + ["--idle-timeout", "120", "--body-timeout", "120", "--max-body-bytes", "100000"])
        let port = server.port
        let token = fixture.token
        for (length, token, status) in [(1_000_000, nil, 401), (200_000, token, 413)] as [(Int, String?, Int)] {
            let outcome = try await onOwnThread {
                let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
                try connection.write(ServeFixture.donationHead(length: length, token: token) + "{\"type\":")
                let answer = try connection.readResponse()
                // The client trickles on; the server must end the connection, not wait for the body.
                var ending = RawHTTPConnection.Ending.timedOut
                for _ in 0..<200 {
                    if connection.isReadable(within: 100) {
                        ending = try connection.readUntilClose().ending
                        break
                    }
                    do { try connection.write("  ") } catch {
                        ending = .reset
                        break
                    }
                }
                return "\(answer.status) \(answer.header("connection") ?? "-") \(ending != .timedOut)"
            }
            #expect(outcome == "\(status) close true", "\(status): status, Connection header, closed by the server")
        }
        #expect(await server.stop() == 0)
    }

    @Test("a request head trickled a byte at a time is cut off after --header-timeout")
    func slowHead() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(
            fixture.storeArguments + ["--header-timeout", "1", "--idle-timeout", "120"])
        let port = server.port
        let cut = try await onOwnThread {
            let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
            try connection.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            // One byte every 100 ms for at most 30 s: each resets the idle timeout.
            for _ in 0..<300 {
                if connection.isReadable(within: 100) { return try connection.readUntilClose().ending != .timedOut }
                do { try connection.write("a") } catch { return true }
            }
            return false
        }
        #expect(cut, "the trickled head kept its connection")
        #expect(try await server.metric(#"searchlight_connections_closed_total{reason="slow_head"}"#) == 1)
        #expect(await server.stop() == 0)
    }

    @Test("a body trickled below --min-body-rate is answered 408 and imports nothing")
    func slowBody() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(
            fixture.storeArguments + ["--body-timeout", "1", "--min-body-rate", "1000", "--idle-timeout", "120"])
        let port = server.port
        let token = fixture.token
        let line = try ServeFixture.activity("9", title: "Trickled quince", description: "slow") + "\n"
        let body = Array((line + String(repeating: " ", count: 1_000_000 - line.utf8.count)).utf8)
        let outcome = try await onOwnThread {
            let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
            try connection.write(ServeFixture.donationHead(length: body.count, token: token))
            // 50 bytes every 100 ms: 500 B/s, half the minimum; at most 30 s (about 15 KB of the 1 MB).
            var sent = 0
            while sent < 15_000, !connection.isReadable(within: 100) {
                do { try connection.write(Array(body[sent..<sent + 50])) } catch { break }
                sent += 50
            }
            let answer = try connection.readResponse()
            return (answer.status, answer.text, answer.header("x-content-type-options") ?? "", sent)
        }
        #expect(outcome.0 == 408, "no 408 after \(outcome.3) bytes")
        #expect(outcome.1.contains("\"error\""))
        #expect(outcome.2 == "nosniff")
        #expect(try await server.request("/healthz").status == 200)
        #expect(try await fixture.store.lines("SELECT count(*) FROM activity WHERE title = 'Trickled quince'") == ["0"])
        #expect(await server.stop() == 0)
    }

    @Test("clients that never read are closed after --write-timeout, and the answer they asked for is let go")
    func writeTimeout() async throws {
        // 150 items of 10 KB descriptions: one search answer of about 1.5 MB, past the kernel's send buffer
        // and NIO's.
        let fixture = try await ServeFixture.make(items: 150, descriptionBytes: 10_000)
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(fixture.storeArguments + ["--write-timeout", "2"])
        let port = server.port
        let outcome = try await onOwnThread {
            let readers = try (0..<3).map { _ in
                let connection = try RawHTTPConnection(port: port, timeoutSeconds: 30, receiveBufferBytes: 4096)
                try connection.sendRequest("/api/search?q=lemon&limit=200")
                return connection
            }
            var closed = 0.0
            for _ in 0..<600 {  // at most a minute
                closed = try Self.metric(#"searchlight_connections_closed_total{reason="write_timeout"}"#, port: port)
                if closed >= 3 { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            let cut = try readers.map { connection -> Bool in
                let head = try connection.readResponse(forHead: true)
                let length = Int(head.header("content-length") ?? "") ?? 0
                let rest = try connection.readUntilClose()
                return rest.ending != .timedOut && rest.bytes.count < length
            }
            return (closed, cut)
        }
        #expect(outcome.0 == 3, "connections closed for the write timeout")
        #expect(outcome.1 == [true, true, true], "each answer was cut off by the close")
        #expect(await server.stop() == 0)
    }

    /// The value of the metric line starting with `prefix`, read over a raw connection (0 when absent).
    static func metric(_ prefix: String, port: UInt16) throws -> Double {
        let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
        try connection.sendRequest("/metrics")
        let line = try connection.readResponse().text.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test("--max-connections: one more connection waits until one closes")
    func connectionCap() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(fixture.storeArguments + ["--max-connections", "3"])
        let port = server.port
        let outcome = try await onOwnThread {
            // Three connections, each answered once (so the server has accepted it) and kept open.
            let open = try (0..<3).map { _ in
                let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
                try connection.sendRequest("/healthz")
                _ = try connection.readResponse()
                return connection
            }
            let waiting = try RawHTTPConnection(port: port, timeoutSeconds: 20)
            try waiting.sendRequest("/healthz")
            let answeredEarly = waiting.isReadable(within: 1000)
            try open[0].sendRequest("/healthz", extraHeaders: ["Connection: close"])
            _ = try open[0].readResponse()
            let answer = try waiting.readResponse()
            return (answeredEarly, answer.status)
        }
        #expect(!outcome.0, "a fourth connection was served while three were open")
        #expect(outcome.1 == 200, "the waiting connection was served once one closed")
        #expect(try await server.metric("searchlight_connection_limit_reached_total").map { $0 >= 1 } == true)
        #expect(await server.stop() == 0)
    }

    @Test("a stop waits at most --shutdown-timeout for a body still arriving, then closes its connection")
    func boundedStop() async throws {
        let fixture = try await ServeFixture.make()
        defer { fixture.cleanUp() }
        let server = try await ServeProcess(
            fixture.storeArguments + ["--shutdown-timeout", "1", "--min-body-rate", "1"])
        let port = server.port
        let token = fixture.token
        let trickle = Task {
            try await onOwnThread {
                let connection = try RawHTTPConnection(port: port, timeoutSeconds: 20)
                try connection.write(ServeFixture.donationHead(length: 1_000_000, token: token))
                // 20 bytes every 100 ms for at most 60 s (12 KB of the 1 MB): ends when the server closes.
                for _ in 0..<600 {
                    if connection.isReadable(within: 100) { return true }
                    do { try connection.write(String(repeating: " ", count: 20)) } catch { return true }
                }
                return false
            }
        }
        // The upload is under way once the server has reserved its memory.
        _ = try await server.poll("/metrics") { $0.body.contains("searchlight_imports_in_progress 1") }
        let status = await server.stop(within: .seconds(60))
        #expect(status == 0, "the server did not stop while a body was trickling in")
        #expect(try await trickle.value, "the trickling connection outlived the server")
        #expect(server.process.standardError.contains("stop deadline reached"), "\(server.process.standardError)")
    }
}
