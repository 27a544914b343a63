import FixtureServer
import Testing

/// Connections: keep-alive, counting, the request log, garbage input, and stopping.
@Suite("Connections")
struct ConnectionTests {
    @Test("Two requests on one kept-alive connection share its connection ID")
    func keepAlive() async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/")
        #expect(try connection.readResponse().status == 200)
        try connection.sendRequest("/about.html")
        #expect(try connection.readResponse().status == 200)

        let requests = await server.requests()
        #expect(requests.map(\.path) == ["/", "/about.html"])
        #expect(requests.map(\.connectionID) == [1, 1])
        #expect(await server.totalConnections() == 1)
        await server.stop()
    }

    @Test("Pipelined requests are answered in order")
    func pipelining() async throws {
        let server = try await FixtureServer.start()
        await server.setBehaviour(.text("one"), for: "/1")
        await server.setBehaviour(.text("two"), for: "/2")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == "one")
        #expect(try connection.readResponse().text == "two")
        await server.stop()
    }

    @Test("Connection: close from the client closes the connection after the response")
    func clientClose() async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/robots.txt", extraHeaders: ["Connection: close"])
        let response = try connection.readResponse()
        #expect(response.header("Connection") == "close")
        #expect(try connection.readUntilClose().ending == .closed)
        await server.stop()
    }

    @Test("The log keeps headers in order, and header lookup ignores case")
    func requestLog() async throws {
        let server = try await FixtureServer.start()
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/q?x=1", extraHeaders: ["User-Agent: raw/1", "X-Twice: a", "x-twice: b"])
        _ = try connection.readResponse()

        let request = try #require(await server.requests().first)
        #expect(request.method == "GET")
        #expect(request.path == "/q?x=1")
        #expect(request.route == "/q")
        #expect(request.headers.map(\.name) == ["Host", "User-Agent", "X-Twice", "x-twice"])
        #expect(request.header("user-agent") == "raw/1")
        #expect(request.header("X-TWICE") == "a")
        #expect(request.headerValues("x-twice") == ["a", "b"])
        await server.stop()
    }

    @Test("Three simultaneous connections and requests are counted at their peak")
    func peaks() async throws {
        let server = try await FixtureServer.start()
        await server.setBehaviour(.hang, for: "/hang")
        let connections = try (0..<3).map { _ in try RawHTTPConnection(port: server.port) }
        for connection in connections {
            try connection.sendRequest("/hang")
        }
        #expect(await server.waitForRequests(3))
        #expect(await server.peakConcurrentConnections() == 3)
        #expect(await server.peakConcurrentRequests() == 3)
        #expect(await server.totalConnections() == 3)
        #expect(Set(await server.requests().map(\.connectionID)) == [1, 2, 3])
        await server.stop()
    }

    @Test("The open-connection count drops when the client closes")
    func openConnections() async throws {
        let server = try await FixtureServer.start()
        var connection: RawHTTPConnection? = try RawHTTPConnection(port: server.port)
        #expect(await server.waitForConnections(1))
        #expect(await server.openConnections() == 1)
        withExtendedLifetime(connection) {}
        connection = nil
        #expect(await server.waitForOpenConnections(atMost: 0))
        #expect(await server.totalConnections() == 1)
        await server.stop()
    }

    @Test("stop() releases a hanging request promptly, and a second stop() is harmless")
    func stopReleasesHang() async throws {
        let server = try await FixtureServer.start()
        await server.setBehaviour(.hang, for: "/hang")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/hang")
        #expect(await server.waitForRequests(1))

        let start = ContinuousClock.now
        await server.stop()
        let (bytes, ending) = try connection.readUntilClose()
        // Far below the 60 s delay or an endless hang; loose enough for a loaded CI machine (the whole
        // suite in parallel on two cores has taken 8 s here).
        #expect(ContinuousClock.now - start < .seconds(60))
        #expect(bytes.isEmpty)
        #expect(ending != .timedOut)
        await server.stop()
        #expect(await server.openConnections() == 0)
    }

    @Test("stop() interrupts a long slowFirstByte")
    func stopInterruptsDelay() async throws {
        let server = try await FixtureServer.start()
        await server.setBehaviour(.slowFirstByte(delay: .seconds(60), then: .text("late")), for: "/slow")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/slow")
        #expect(await server.waitForRequests(1))
        let start = ContinuousClock.now
        await server.stop()
        // Far below the 60 s delay or an endless hang; loose enough for a loaded CI machine (the whole
        // suite in parallel on two cores has taken 8 s here).
        #expect(ContinuousClock.now - start < .seconds(60))
        #expect(try connection.readUntilClose().bytes.isEmpty)
    }

    @Test(
        "Garbage input gets 400 and the connection closes",
        arguments: [
            "GARBAGE\r\n\r\n",
            "GET /\r\n\r\n",
            "GET relative HTTP/1.1\r\n\r\n",
            "GET / HTTP/9.9\r\n\r\n",
            "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
            "GET / HTTP/1.1\r\n folded: header\r\n\r\n",
            "G\u{0}T / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
        ]
    )
    func malformed(input: String) async throws {
        let server = try await FixtureServer.start(site: "example")
        let connection = try RawHTTPConnection(port: server.port)
        try connection.write(input)
        let (bytes, ending) = try connection.readUntilClose()
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(ending == .closed)

        // The server survives: a fresh connection is served normally.
        let next = try RawHTTPConnection(port: server.port)
        try next.sendRequest("/robots.txt")
        #expect(try next.readResponse().status == 200)
        await server.stop()
    }

    @Test("Random bytes never stop the server from serving the next client")
    func randomBytes() async throws {
        let server = try await FixtureServer.start(site: "example")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let connection = try RawHTTPConnection(port: server.port)
            let noise = (0..<Int.random(in: 1...600, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            try connection.write(noise + [13, 10, 13, 10])
            _ = try connection.readUntilClose()
        }
        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendRequest("/")
        #expect(try connection.readResponse().status == 200)
        await server.stop()
    }

    @Test("Two servers get different ports, for cross-host redirects")
    func twoServers() async throws {
        let first = try await FixtureServer.start()
        let second = try await FixtureServer.start(site: "example")
        await first.setBehaviour(.redirect(location: second.url("/about.html")), for: "/go")
        #expect(first.port != second.port)
        #expect(second.baseURL == "http://127.0.0.1:\(second.port)")

        let connection = try RawHTTPConnection(port: first.port)
        try connection.sendRequest("/go")
        let location = try #require(try connection.readResponse().header("Location"))
        #expect(location == "http://127.0.0.1:\(second.port)/about.html")
        await first.stop()
        await second.stop()
    }
}
