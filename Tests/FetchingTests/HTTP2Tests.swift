import Fetching
import Testing

@Suite(
    "HTTP/2 and TLS against nginx",
    .enabled(if: NginxServer.isAvailable, "needs nginx and openssl: Scripts/bootstrap.sh --test"))
struct HTTP2Tests {
    @Test("Concurrent requests to one host multiplex over HTTP/2 within the per-host cap")
    func multiplexing() async throws {
        let (responses, log) = try await NginxServer.with { nginx in
            let configuration = testConfiguration(perHost: 2, global: 32).with(caBundle: nginx.certificatePath)
            let urls = (0..<40).map { nginx.url("/item/\($0)") }
            let responses = try await withFetcher(configuration: configuration) { fetcher in
                try await withThrowingTaskGroup(of: FetchResponse.self) { group in
                    for url in urls {
                        group.addTask { try await fetcher.fetch(FetchRequest(url: url)) }
                    }
                    return try await group.reduce(into: [FetchResponse]()) { $0.append($1) }
                }
            }
            return (responses, try nginx.accessLog())
        }
        #expect(responses.count == 40)
        #expect(responses.allSatisfy { $0.status == 200 && $0.httpVersion == "2" })
        #expect(responses.allSatisfy { $0.timings.tlsHandshake >= $0.timings.connect })
        #expect(log.count == 40)
        #expect(log.allSatisfy { $0.count > 1 && $0[1] == "HTTP/2.0" })
        let connections = Set(log.map { $0[0] })
        #expect(connections.count <= 2, "\(connections.count) connections")
    }

    @Test("A certificate the trust store does not know is a TLS error")
    func untrusted() async throws {
        let error = try await NginxServer.with { nginx in
            try await withFetcher(configuration: testConfiguration()) { fetcher in
                await fetchError(fetcher, nginx.url("/"))
            }
        }
        #expect(error?.kind == .tls)
    }
}

extension FetchConfiguration {
    func with(caBundle path: String) -> FetchConfiguration {
        var copy = self
        copy.caBundlePath = path
        return copy
    }
}
