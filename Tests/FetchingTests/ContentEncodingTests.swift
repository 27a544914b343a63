import Fetching
import FixtureServer
import Testing

@Suite("Content decoding")
struct ContentEncodingTests {
    @Test("Accept-Encoding offers every encoding libcurl decodes")
    func acceptEncodingOffered() async throws {
        try await withServerAndFetcher(site: "example") { server, fetcher in
            _ = try await fetcher.fetch(FetchRequest(url: server.url("/")))
            let sent = try #require(await server.requests().first?.header("Accept-Encoding"))
            for encoding in ["gzip", "br", "zstd", "deflate"] {
                #expect(sent.contains(encoding), "Accept-Encoding '\(sent)' lacks \(encoding)")
            }
            #expect(Set(Fetcher.supportedContentEncodings).isSuperset(of: ["gzip", "br", "zstd"]))
        }
    }

    @Test(
        "Encoded bodies are decoded transparently",
        arguments: [
            ("encoded/page.html.gz", "gzip"),
            ("encoded/page.html.br", "br"),
            ("encoded/page.html.zst", "zstd"),
        ])
    func decodes(file: String, encoding: String) async throws {
        let plain = try Fixtures.bytes("encoded/page.html")
        let encoded = try Fixtures.bytes(file)
        #expect(encoded != plain)
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(.file(file, contentType: "text/html", contentEncoding: encoding), for: "/page")
            let response = try await fetcher.fetch(FetchRequest(url: server.url("/page")))
            #expect(response.status == 200)
            #expect(response.headers["Content-Encoding"] == encoding)
            #expect(response.body == plain)
            #expect(response.wireBodyBytes == encoded.count)
        }
    }

    @Test("A body that is not what its Content-Encoding says is an error")
    func badEncoding() async throws {
        try await withServerAndFetcher { server, fetcher in
            await server.setBehaviour(
                .respond(status: 200, headers: [("Content-Encoding", "gzip")], body: "not gzip at all".bytes),
                for: "/liar")
            let error = await fetchError(fetcher, server.url("/liar"))
            #expect(error?.kind == .badContentEncoding)
        }
    }
}
