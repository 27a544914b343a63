import Fetching
import FixtureServer
import Testing

@Suite("Body size and decompression limits", .timeLimit(.minutes(2)))
struct BodyLimitTests {
    @Test("A gzip bomb is aborted at the decoded size limit, not buffered")
    func gzipBomb() async throws {
        let limit = 4 * 1024 * 1024
        // A ratio limit high enough that the size limit is what fires.
        let configuration = testConfiguration(maxBodySize: limit, maxDecompressionRatio: 100_000)
        try await withServerAndFetcher(configuration: configuration) { server, fetcher in
            await server.setBehaviour(
                .file("encoded/bomb-100m.gz", contentType: "text/html", contentEncoding: "gzip"), for: "/bomb")
            let error = try #require(await fetchError(fetcher, server.url("/bomb")))
            #expect(error.kind == .bodyTooLarge)
            #expect(error.message.contains("\(limit)"))
            // Memory stays bounded: the body buffer, the one place a transfer keeps data, never
            // held more than the limit of the 100 MiB this body decodes to.
            let held = try #require(error.heldBodyBytes)
            #expect(held <= limit)
            #expect(held > limit / 2)
        }
    }

    @Test("A highly compressed body under the size limit trips the ratio limit")
    func decompressionRatio() async throws {
        let configuration = testConfiguration(maxBodySize: 64 * 1024 * 1024, maxDecompressionRatio: 100)
        try await withServerAndFetcher(configuration: configuration) { server, fetcher in
            await server.setBehaviour(
                .file("encoded/ratio-4m.gz", contentType: "text/html", contentEncoding: "gzip"), for: "/zeros")
            let error = await fetchError(fetcher, server.url("/zeros"))
            #expect(error?.kind == .decompressionRatioExceeded)
            #expect((error?.heldBodyBytes ?? .max) < 4 * 1024 * 1024)
        }
    }

    @Test("Ordinary compressed pages pass the ratio limit")
    func ordinaryRatio() async throws {
        try await withServerAndFetcher(configuration: testConfiguration(maxDecompressionRatio: 20)) { server, fetcher in
            await server.setBehaviour(
                .file("encoded/page.html.gz", contentType: "text/html", contentEncoding: "gzip"), for: "/p")
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/p")))
            #expect(response.body == (try Fixtures.bytes("encoded/page.html")))
        }
    }

    @Test("An uncompressed body over the limit is aborted", arguments: [false, true])
    func plainTooLarge(chunked: Bool) async throws {
        let body = [UInt8](repeating: 0x61, count: 300_000)
        try await withServerAndFetcher(configuration: testConfiguration(maxBodySize: 100_000)) { server, fetcher in
            let behaviour: FixtureBehaviour =
                chunked ? .chunked(body: body, chunkSize: 8192) : .respond(status: 200, body: body)
            await server.setBehaviour(behaviour, for: "/big")
            let error = await fetchError(fetcher, server.url("/big"))
            #expect(error?.kind == .bodyTooLarge)
        }
    }

    @Test("A body exactly at the limit is accepted")
    func atLimit() async throws {
        let body = [UInt8](repeating: 0x62, count: 100_000)
        try await withServerAndFetcher(configuration: testConfiguration(maxBodySize: 100_000)) { server, fetcher in
            await server.setBehaviour(.respond(status: 200, body: body), for: "/exact")
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/exact")))
            #expect(response.body.count == 100_000)
        }
    }
}
