import Fetching
import FixtureServer
import Testing

@Suite("Conditional requests")
struct ConditionalRequestTests {
    static let lastModified = "Tue, 15 Oct 2024 08:00:00 GMT"

    @Test("A stored ETag or Last-Modified gets 304 with no body")
    func notModified() async throws {
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(
                .conditional(body: "<p>v1</p>".bytes, etag: "\"v1\"", lastModified: Self.lastModified), for: "/doc")
            let first = try await fetcher.fetch(FetchRequest(url: server.url("/doc")))
            #expect(first.status == 200)
            let etag = try #require(first.headers["ETag"])
            let modified = try #require(first.headers["Last-Modified"])

            let byTag = try await fetcher.fetch(FetchRequest(url: server.url("/doc"), ifNoneMatch: etag))
            #expect(byTag.status == 304)
            #expect(byTag.body.isEmpty)

            let byDate = try await fetcher.fetch(FetchRequest(url: server.url("/doc"), ifModifiedSince: modified))
            #expect(byDate.status == 304)

            let stale = try await fetcher.fetch(FetchRequest(url: server.url("/doc"), ifNoneMatch: "\"v0\""))
            #expect(stale.status == 200)
            #expect(stale.body == "<p>v1</p>".bytes)

            let sent = await server.requests().map { ($0.header("If-None-Match"), $0.header("If-Modified-Since")) }
            #expect(sent[1].0 == "\"v1\"" && sent[2].1 == Self.lastModified)
            #expect(sent[0].0 == nil && sent[0].1 == nil)
        }
    }
}
