import Fetching
import FixtureServer
import Testing

@Suite("Redirects", .timeLimit(.minutes(2)))
struct RedirectTests {
    @Test("A redirect is reported with its Location, not followed")
    func reportedNotFollowed() async throws {
        try await withServerAndFetcher(site: "example") { server, fetcher in
            await server.setBehaviour(.redirect(status: 301, location: "/about.html"), for: "/old")
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/old")))
            #expect(response.status == 301)
            #expect(response.isRedirect)
            #expect(response.location == server.url("/about.html"))
            #expect(response.body.count < 200)
            let paths = await server.requests().map(\.path)
            #expect(paths == ["/old"])
        }
    }

    @Test("Following a chain records every hop, relative and cross-host")
    func followsChain() async throws {
        let other = try await FixtureServer.start(site: "example")
        defer { Task { await other.stop() } }
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(.redirect(status: 302, location: "/b"), for: "/a")
            await server.setBehaviour(.redirect(status: 307, location: other.url("/c")), for: "/b")
            await other.setBehaviour(.redirect(status: 308, location: "about.html"), for: "/c")
            let result = try await fetcher.fetchFollowingRedirects(FetchRequest(url: server.url("/a")))
            #expect(result.response.status == 200)
            #expect(result.finalURL == other.url("/about.html"))
            #expect(result.chain.map(\.status) == [302, 307, 308, 200])
            #expect(
                result.chain.map(\.url) == [
                    server.url("/a"), server.url("/b"), other.url("/c"), other.url("/about.html"),
                ])
            #expect(result.redirectCount == 3)
        }
        await other.stop()
    }

    @Test("A redirect loop ends with an error")
    func loop() async throws {
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(.redirect(location: "/y"), for: "/x")
            await server.setBehaviour(.redirect(location: "/x"), for: "/y")
            do {
                _ = try await fetcher.fetchFollowingRedirects(FetchRequest(url: server.url("/x")))
                Issue.record("a loop must not succeed")
            } catch let error as FetchError {
                #expect(error.kind == .redirectLoop)
            }
            #expect(await server.requests().count == 2)
        }
    }

    @Test("More hops than allowed is an error")
    func tooMany() async throws {
        try await withServerAndFetcher { server, fetcher in
            for hop in 0..<10 {
                await server.setBehaviour(.redirect(location: "/hop\(hop + 1)"), for: "/hop\(hop)")
            }
            do {
                _ = try await fetcher.fetchFollowingRedirects(FetchRequest(url: server.url("/hop0")), maxHops: 3)
                Issue.record("four redirects must not be followed with maxHops 3")
            } catch let error as FetchError {
                #expect(error.kind == .tooManyRedirects)
            }
            #expect(await server.requests().count == 4)
        }
    }

    @Test("The caller can refuse a hop")
    func refusedHop() async throws {
        try await withServerAndFetcher(site: "example") { server, fetcher in
            await server.setBehaviour(.redirect(location: "/private/secret"), for: "/go")
            let result = try await fetcher.fetchFollowingRedirects(FetchRequest(url: server.url("/go"))) { url in
                !url.contains("/private/")
            }
            #expect(result.response.status == 302)
            #expect(result.chain.count == 1)
            #expect(await server.requests().map(\.path) == ["/go"])
        }
    }

    @Test(
        "Redirects to other schemes are refused",
        arguments: ["ftp://127.0.0.1/x", "file:///etc/passwd", "gopher://127.0.0.1/"])
    func otherSchemes(location: String) async throws {
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(.redirect(location: location), for: "/out")
            do {
                _ = try await fetcher.fetchFollowingRedirects(FetchRequest(url: server.url("/out")))
                Issue.record("a redirect to \(location) must not be followed")
            } catch let error as FetchError {
                #expect(error.kind == .unsupportedScheme || error.kind == .invalidURL)
            }
        }
    }

    @Test(
        "Only http and https URLs are fetched",
        arguments: ["ftp://127.0.0.1/", "file:///etc/passwd", "dict://127.0.0.1/", "not a url", "http://"])
    func schemes(url: String) async throws {
        try await withFetcher(configuration: testConfiguration()) { fetcher in
            let error = await fetchError(fetcher, url)
            #expect(error?.kind == .unsupportedScheme || error?.kind == .invalidURL)
        }
    }
}
