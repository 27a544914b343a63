import Fetching
import FixtureServer
import Testing

@Suite("Responses and transport errors")
struct ResponseTests {
    @Test("Repeated headers are kept in order, lookups ignore case")
    func repeatedHeaders() async throws {
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(
                .respond(
                    status: 200,
                    headers: [
                        ("X-Robots-Tag", "noindex"), ("Set-Cookie", "a=1"), ("x-robots-tag", "nosnippet"),
                        ("Set-Cookie", "b=2"),
                    ],
                    body: "x".bytes),
                for: "/h")
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/h")))
            #expect(response.headers.values(for: "x-robots-tag") == ["noindex", "nosnippet"])
            #expect(response.headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
            #expect(response.headers["content-length"] == "1")
        }
    }

    @Test("Status, version, peer address and timings are reported", arguments: [200, 404, 410, 500, 503])
    func statusAndTimings(status: Int) async throws {
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(.respond(status: status, body: "body".bytes), for: "/s")
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/s")))
            #expect(response.status == status)
            #expect(response.httpVersion == "1.1")
            #expect(response.remoteAddress == "127.0.0.1")
            let t = response.timings
            #expect(t.total > .zero)
            #expect(t.connect >= t.nameLookup)
            #expect(t.firstByte >= t.connect)
            #expect(t.total >= t.firstByte)
            #expect(t.tlsHandshake == .zero)
        }
    }

    @Test("429 and 503 come back with Retry-After for the caller to honour", arguments: [429, 503])
    func retryAfter(status: Int) async throws {
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(.retryAfter(status: status, seconds: 7), for: "/busy")
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/busy")))
            #expect(response.status == status)
            #expect(response.headers["Retry-After"] == "7")
        }
    }

    @Test("HEAD gets headers and no body")
    func head() async throws {
        try await withServerAndFetcher(site: "example") { server, fetcher in
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/"), method: .head))
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(await server.requests().first?.method == "HEAD")
        }
    }

    @Test("Custom headers and the User-Agent are sent")
    func requestHeaders() async throws {
        try await withServerAndFetcher(site: "example") { server, fetcher in
            _ = try await fetcher.fetch(FetchRequest(url: server.url("/"), headers: [("Accept-Language", "fr")]))
            let request = try #require(await server.requests().first)
            #expect(request.header("Accept-Language") == "fr")
            #expect(request.header("User-Agent") == FetchConfiguration.defaultUserAgent)
            #expect(request.header("Accept")?.hasPrefix("text/html") == true)
        }
    }

    @Test(
        "Broken transfers map to their own error kinds",
        arguments: [
            ("truncated", FetchError.Kind.truncatedBody),
            ("reset", .connectionReset),
            ("empty", .emptyReply),
        ])
    func brokenTransfers(name: String, kind: FetchError.Kind) async throws {
        try await withServerAndFetcher { server, fetcher in
            let behaviour: FixtureBehaviour
            switch name {
            case "truncated": behaviour = .truncated(body: "partial".bytes, declaredLength: 5000)
            case "reset": behaviour = .resetAfterHeaders
            default: behaviour = .closeWithoutResponse
            }
            await server.setBehaviour(behaviour, for: "/broken")
            let error = await fetchError(fetcher, server.url("/broken"))
            #expect(error?.kind == kind, "got \(String(describing: error))")
            #expect(error?.url == server.url("/broken"))
            #expect(error?.isTransient == true)
        }
    }

    @Test("A refused connection is a connection failure")
    func refused() async throws {
        // A port bound without listening refuses connections and stays ours for the test; a
        // stopped server's port could be taken by another test's listener meanwhile.
        let closed = try SilentListener(listening: false)
        defer { closed.close() }
        let url = "http://127.0.0.1:\(closed.port)/"
        try await withFetcher(configuration: testConfiguration()) { fetcher in
            let error = await fetchError(fetcher, url)
            #expect(error?.kind == .connectionFailed)
        }
    }
}
