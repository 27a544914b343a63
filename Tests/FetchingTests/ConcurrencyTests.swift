import Fetching
import FixtureServer
import Testing

@Suite("Concurrency, connection reuse and cancellation", .timeLimit(.minutes(2)))
struct ConcurrencyTests {
    @Test("200 concurrent requests complete and the per-host cap holds on the server side")
    func perHostCap() async throws {
        let cap = 4
        try await withServerAndFetcher(configuration: testConfiguration(perHost: cap, global: 32)) { server, fetcher in
            // A short delay per answer makes transfers overlap, so the cap is what limits them.
            await server.setBehaviour(.slowFirstByte(delay: .milliseconds(15), then: .html("<p>ok</p>")), for: "/page")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask { try await fetcher.fetch(FetchRequest(url: server.url("/page?n=\(index)"))).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(await server.requests().count == 200)
            let connections = await server.peakConcurrentConnections()
            let inFlight = await server.peakConcurrentRequests()
            #expect(connections <= cap, "peak \(connections) connections")
            #expect(inFlight <= cap, "peak \(inFlight) requests in flight")
            #expect(inFlight >= 2, "transfers should have overlapped")
            // Keep-alive: a handful of connections served all 200 requests.
            #expect(await server.totalConnections() <= cap * 2)
        }
    }

    @Test("Sequential requests reuse one connection")
    func connectionReuse() async throws {
        try await withServerAndFetcher(site: "example") { server, fetcher in
            for _ in 0..<10 {
                _ = try await fetcher.fetch(FetchRequest(url: server.url("/")))
            }
            #expect(await server.totalConnections() == 1)
        }
    }

    @Test("Cancelling the task removes an in-flight transfer at once")
    func cancellation() async throws {
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(.hang, for: "/hang")
            let task = Task { try await fetcher.fetch(FetchRequest(url: server.url("/hang"))) }
            #expect(await server.waitForRequests(1))
            let started = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(ContinuousClock.now - started < .seconds(60))
            #expect(throws: CancellationError.self) { try result.get() }
            // libcurl closed the connection the transfer was using.
            #expect(await server.waitForOpenConnections(atMost: 0))
            // The fetcher still works afterwards.
            await server.setBehaviour(.html("fine"), for: "/after")
            let after = try await fetcher.fetch(FetchRequest(url: server.url("/after")))
            #expect(after.status == 200)
        }
    }

    @Test("Cancelling a queued transfer frees its slot without touching the server")
    func cancelQueued() async throws {
        try await withServerAndFetcher(configuration: testConfiguration(perHost: 1)) { server, fetcher in
            await server.setBehaviour(.hang, for: "/hang")
            let blocker = Task { try await fetcher.fetch(FetchRequest(url: server.url("/hang"))) }
            #expect(await server.waitForRequests(1))
            let queued = Task { try await fetcher.fetch(FetchRequest(url: server.url("/queued"))) }
            try await Task.sleep(for: .milliseconds(100))
            queued.cancel()
            let queuedResult = await queued.result
            #expect(throws: CancellationError.self) { try queuedResult.get() }
            blocker.cancel()
            _ = await blocker.result
            #expect(await server.requests().map(\.path) == ["/hang"])
        }
    }

    @Test("Shutdown fails pending transfers instead of leaving them waiting")
    func shutdown() async throws {
        let server = try await FixtureServer.start()
        await server.setBehaviour(.hang, for: "/hang")
        let fetcher = try Fetcher(configuration: testConfiguration())
        let task = Task { try await fetcher.fetch(FetchRequest(url: server.url("/hang"))) }
        #expect(await server.waitForRequests(1))
        await fetcher.shutdown()
        do {
            _ = try await task.value
            Issue.record("a hanging transfer cannot succeed")
        } catch let error as FetchError {
            #expect(error.kind == .shutdown)
        }
        let late = await fetchError(fetcher, server.url("/hang"))
        #expect(late?.kind == .shutdown)
        await server.stop()
    }
}
