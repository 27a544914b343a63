import Fetching
import FixtureServer
import Logging
import Testing

/// A fetch configuration for loopback tests: private addresses allowed, short timeouts.
func testConfiguration(
    perHost: Int = 4,
    global: Int = 32,
    connectTimeout: Duration = .seconds(5),
    totalTimeout: Duration = .seconds(20),
    lowSpeedLimit: Int = 1,
    lowSpeedTime: Duration = .seconds(20),
    maxBodySize: Int = 10 * 1024 * 1024,
    maxDecompressionRatio: Int = 200,
    addressPolicy: AddressPolicy = .allowAll
) -> FetchConfiguration {
    FetchConfiguration(
        maxConcurrentTransfers: global,
        maxTransfersPerHost: perHost,
        connectTimeout: connectTimeout,
        totalTimeout: totalTimeout,
        lowSpeedLimit: lowSpeedLimit,
        lowSpeedTime: lowSpeedTime,
        maxBodySize: maxBodySize,
        maxDecompressionRatio: maxDecompressionRatio,
        addressPolicy: addressPolicy)
}

/// Runs `body` with a fixture server and a fetcher, stopping both afterwards.
func withServerAndFetcher<Result>(
    site: String? = nil,
    configuration: FetchConfiguration = testConfiguration(),
    _ body: (FixtureServer, Fetcher) async throws -> Result
) async throws -> Result {
    let server = try await FixtureServer.start(site: site)
    do {
        let result = try await withFetcher(configuration: configuration, logger: Logger(label: "test")) { fetcher in
            try await body(server, fetcher)
        }
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Fetches `url` and returns the error it must fail with.
func fetchError(_ fetcher: Fetcher, _ url: String, sourceLocation: SourceLocation = #_sourceLocation) async
    -> FetchError?
{
    do {
        let response = try await fetcher.fetch(FetchRequest(url: url))
        Issue.record("expected an error, got status \(response.status)", sourceLocation: sourceLocation)
        return nil
    } catch let error as FetchError {
        return error
    } catch {
        Issue.record("expected a FetchError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
