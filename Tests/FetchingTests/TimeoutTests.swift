import Fetching
import FixtureServer
import Testing

@Suite("Timeouts", .timeLimit(.minutes(2)))
struct TimeoutTests {
    @Test("A TLS handshake that never completes hits the connect timeout")
    func tlsConnectTimeout() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let configuration = testConfiguration(connectTimeout: .milliseconds(500), totalTimeout: .seconds(10))
        try await withFetcher(configuration: configuration) { fetcher in
            let started = ContinuousClock.now
            let error = await fetchError(fetcher, "https://127.0.0.1:\(listener.port)/")
            #expect(error?.kind == .connectTimeout)
            // A hang guard: the kind tells connect from total timeout; a loaded CI machine stretches wall time.
            #expect(ContinuousClock.now - started < .seconds(60))  // the kind above is the real check
        }
    }

    @Test("A TCP connection the server never accepts hits the connect timeout")
    func tcpConnectTimeout() async throws {
        let listener = try SilentListener(fillBacklog: true)
        defer { listener.close() }
        let configuration = testConfiguration(connectTimeout: .milliseconds(500), totalTimeout: .seconds(10))
        try await withFetcher(configuration: configuration) { fetcher in
            let error = await fetchError(fetcher, "http://127.0.0.1:\(listener.port)/")
            #expect(error?.kind == .connectTimeout)
        }
    }

    @Test("A steady but endless body hits the total timeout")
    func totalTimeout() async throws {
        let configuration = testConfiguration(
            totalTimeout: .milliseconds(800), lowSpeedLimit: 100, lowSpeedTime: .seconds(5))
        try await withServerAndFetcher(configuration: configuration) { server, fetcher in
            // 2 KB every 50 ms is 40 KB/s, far above the low-speed limit, for 10 s in all.
            let body = [UInt8](repeating: 0x63, count: 400_000)
            await server.setBehaviour(
                .trickle(body: body, chunkSize: 2000, interval: .milliseconds(50)), for: "/endless")
            let started = ContinuousClock.now
            let error = await fetchError(fetcher, server.url("/endless"))
            #expect(error?.kind == .totalTimeout)
            // The error kind is the real check (the body would end well in 10 s); this only guards
            // against a hang, loosely, because a loaded 2-core CI machine delays the result by seconds.
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test("A server that goes quiet hits the low-speed timeout before the total one")
    func lowSpeedTimeout() async throws {
        let configuration = testConfiguration(
            totalTimeout: .seconds(30), lowSpeedLimit: 1000, lowSpeedTime: .seconds(1))
        try await withServerAndFetcher(configuration: configuration) { server, fetcher in
            await server.setBehaviour(.slowFirstByte(delay: .seconds(20), then: .html("late")), for: "/quiet")
            let started = ContinuousClock.now
            let error = await fetchError(fetcher, server.url("/quiet"))
            #expect(error?.kind == .lowSpeedTimeout)
            // The kind is the real check (the late answer would arrive after 20 s); a loose hang guard.
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test("A server that goes quiet on a reused connection hits the low-speed timeout, not the connect one")
    func lowSpeedTimeoutOnReusedConnection() async throws {
        let configuration = testConfiguration(
            totalTimeout: .seconds(30), lowSpeedLimit: 1000, lowSpeedTime: .seconds(1))
        try await withServerAndFetcher(configuration: configuration) { server, fetcher in
            await server.setBehaviour(.html("first"), for: "/first")
            await server.setBehaviour(.slowFirstByte(delay: .seconds(20), then: .html("late")), for: "/quiet")
            // The second request goes over the first one's kept-alive connection: no connect time at all.
            _ = try await fetcher.fetch(FetchRequest(url: server.url("/first")))
            let error = await fetchError(fetcher, server.url("/quiet"))
            #expect(error?.kind == .lowSpeedTimeout, "\(String(describing: error))")
        }
    }

    @Test("A slow first byte within the limits is fine")
    func slowButAcceptable() async throws {
        try await withServerAndFetcher(configuration: testConfiguration(totalTimeout: .seconds(5))) { server, fetcher in
            await server.setBehaviour(.slowFirstByte(delay: .milliseconds(300), then: .html("ok")), for: "/slow")
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/slow")))
            #expect(response.body == "ok".bytes)
            #expect(response.timings.firstByte >= .milliseconds(250))
        }
    }
}
