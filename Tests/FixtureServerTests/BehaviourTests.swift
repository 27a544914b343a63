import FixtureServer
import Testing

/// Programmable behaviours: well-formed answers, and the misbehaviours a fetcher must survive.
@Suite("Behaviours")
struct BehaviourTests {
    /// Starts a server with `behaviour` at `/b`, sends one GET for `target`, and returns the server and connection.
    private func exchange(
        _ behaviour: FixtureBehaviour,
        target: String = "/b",
        headers: [String] = []
    ) async throws -> (FixtureServer, RawHTTPConnection) {
        let server = try await FixtureServer.start()
        await server.setBehaviour(behaviour, for: "/b")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest(target, extraHeaders: headers)
        return (server, connection)
    }

    @Test("respond sends any status with its headers and a matching Content-Length", arguments: [200, 404, 410, 500])
    func respond(status: Int) async throws {
        let body = Array("status \(status)".utf8)
        let (server, connection) = try await exchange(
            .respond(status: status, headers: [("X-Fixture", "yes")], body: body)
        )
        let response = try connection.readResponse()
        #expect(response.status == status)
        #expect(response.header("X-Fixture") == "yes")
        #expect(response.header("Content-Length") == String(body.count))
        #expect(response.body == body)
        await server.stop()
    }

    @Test("Behaviours match the path without its query")
    func matchesRouteOnly() async throws {
        let (server, connection) = try await exchange(.text("found"), target: "/b?page=2")
        #expect(try connection.readResponse().text == "found")
        #expect(await server.requests().first?.path == "/b?page=2")
        await server.stop()
    }

    @Test(
        "redirect sends Location exactly as given",
        arguments: [(301, "/elsewhere"), (302, "http://127.0.0.1:9/x"), (308, "../up")]
    )
    func redirect(status: Int, location: String) async throws {
        let (server, connection) = try await exchange(.redirect(status: status, location: location))
        let response = try connection.readResponse()
        #expect(response.status == status)
        #expect(response.header("Location") == location)
        await server.stop()
    }

    @Test("retryAfter sends the status with Retry-After", arguments: [429, 503])
    func retryAfter(status: Int) async throws {
        let (server, connection) = try await exchange(.retryAfter(status: status, seconds: 7))
        let response = try connection.readResponse()
        #expect(response.status == status)
        #expect(response.header("Retry-After") == "7")
        await server.stop()
    }

    @Test("slowFirstByte waits before behaving as the wrapped behaviour")
    func slowFirstByte() async throws {
        let start = ContinuousClock.now
        let (server, connection) = try await exchange(
            .slowFirstByte(delay: .milliseconds(150), then: .redirect(location: "/next"))
        )
        let response = try connection.readResponse()
        #expect(ContinuousClock.now - start >= .milliseconds(150))
        #expect(response.status == 302)
        await server.stop()
    }

    @Test("trickle sends the whole body in pieces, spaced by the interval")
    func trickle() async throws {
        let body = Array(repeating: UInt8(ascii: "x"), count: 50)
        let start = ContinuousClock.now
        let (server, connection) = try await exchange(.trickle(body: body, chunkSize: 10, interval: .milliseconds(30)))
        let response = try connection.readResponse()
        // Five pieces have four pauses between them.
        #expect(ContinuousClock.now - start >= .milliseconds(120))
        #expect(response.header("Content-Length") == "50")
        #expect(response.body == body)
        await server.stop()
    }

    @Test("truncated promises more than it sends, then closes")
    func truncated() async throws {
        let (server, connection) = try await exchange(.truncated(body: Array("short".utf8), declaredLength: 100))
        let (bytes, ending) = try connection.readUntilClose()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(ending == .closed)
        #expect(text.contains("Content-Length: 100\r\n"))
        #expect(text.hasSuffix("\r\n\r\nshort"))
        await server.stop()
    }

    @Test("resetAfterHeaders sends headers, then RST")
    func resetAfterHeaders() async throws {
        let (server, connection) = try await exchange(.resetAfterHeaders)
        let (bytes, ending) = try connection.readUntilClose()
        #expect(ending == .reset)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        await server.stop()
    }

    @Test("closeWithoutResponse closes without a byte")
    func closeWithoutResponse() async throws {
        let (server, connection) = try await exchange(.closeWithoutResponse)
        let (bytes, ending) = try connection.readUntilClose()
        #expect(bytes.isEmpty)
        #expect(ending == .closed)
        await server.stop()
    }

    @Test("file serves fixture bytes verbatim with the declared Content-Encoding")
    func encodedFile() async throws {
        let (server, connection) = try await exchange(
            .file("encoded/page.html.gz", contentType: "text/html", contentEncoding: "gzip")
        )
        let response = try connection.readResponse()
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.header("Content-Type") == "text/html")
        #expect(response.body == (try Fixtures.bytes("encoded/page.html.gz")))
        await server.stop()
    }

    @Test(
        "conditional answers 304 only when the validators match",
        arguments: [
            ([String](), 200),
            (["If-None-Match: \"v1\""], 304),
            (["If-None-Match: \"v0\", W/\"v1\""], 304),
            (["If-None-Match: \"v0\""], 200),
            (["If-Modified-Since: Tue, 15 Oct 2024 08:00:00 GMT"], 304),
            (["If-Modified-Since: Wed, 16 Oct 2024 00:00:00 GMT"], 304),
            (["If-Modified-Since: Mon, 14 Oct 2024 08:00:00 GMT"], 200),
            // RFC 9110: If-None-Match decides when present, even if the date alone would say "not modified".
            (["If-None-Match: \"v0\"", "If-Modified-Since: Tue, 15 Oct 2024 08:00:00 GMT"], 200),
        ]
    )
    func conditional(headers: [String], status: Int) async throws {
        let behaviour = FixtureBehaviour.conditional(
            body: Array("<p>v1</p>".utf8),
            etag: "\"v1\"",
            lastModified: "Tue, 15 Oct 2024 08:00:00 GMT"
        )
        let (server, connection) = try await exchange(behaviour, headers: headers)
        let response = try connection.readResponse()
        #expect(response.status == status)
        #expect(response.header("ETag") == "\"v1\"")
        #expect(response.header("Last-Modified") == "Tue, 15 Oct 2024 08:00:00 GMT")
        #expect(response.body == (status == 200 ? Array("<p>v1</p>".utf8) : []))
        await server.stop()
    }

    @Test("sequence answers step by step, then repeats the last step")
    func sequence() async throws {
        let (server, connection) = try await exchange(.sequence([.retryAfter(status: 503, seconds: 1), .text("ok")]))
        #expect(try connection.readResponse().status == 503)
        for _ in 0..<2 {
            try connection.sendRequest("/b")
            #expect(try connection.readResponse().text == "ok")
        }
        await server.stop()
    }

    @Test("chunked sends a body without Content-Length")
    func chunked() async throws {
        let body = Array("0123456789abcdef-tail".utf8)
        let (server, connection) = try await exchange(.chunked(body: body, chunkSize: 4))
        let response = try connection.readResponse()
        #expect(response.header("Content-Length") == nil)
        #expect(response.body == body)
        await server.stop()
    }
}
