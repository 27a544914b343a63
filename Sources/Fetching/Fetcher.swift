import Logging

/// An HTTP client for crawling, built on libcurl's multi interface.
///
/// One `Fetcher` owns one libcurl multi handle and the thread that drives it; any number
/// of tasks may call ``fetch(_:)`` at once. Transfers share connections (HTTP/1.1
/// keep-alive and HTTP/2 multiplexing where the server offers it) and run under a global
/// and a per-host cap from ``FetchConfiguration``.
///
/// Prefer the scoped form, which always stops the thread:
/// ```swift
/// let page = try await withFetcher { fetcher in
///     try await fetcher.fetch(FetchRequest(url: "https://example.com/"))
/// }
/// ```
public final class Fetcher: Sendable {
    /// The limits and policies applied to every transfer.
    public let configuration: FetchConfiguration
    private let loop: CurlMultiLoop
    private let logger: Logger

    /// Creates a fetcher and starts its thread. Call ``shutdown()`` when done, or use
    /// ``withFetcher(configuration:logger:isolation:_:)``.
    public init(
        configuration: FetchConfiguration = FetchConfiguration(),
        logger: Logger = Logger(label: "searchlight.fetching")
    ) throws(FetchError) {
        self.configuration = configuration
        self.logger = logger
        self.loop = try CurlMultiLoop(configuration: configuration, logger: logger)
        loop.start()
    }

    deinit {
        loop.requestStop()
    }

    /// Performs one request.
    ///
    /// Returns the response for any HTTP status, redirects included (they are reported,
    /// not followed). Throws ``FetchError`` when no complete response arrived, and
    /// `CancellationError` when the calling task is cancelled, which also removes the
    /// transfer from libcurl at once.
    public func fetch(_ request: FetchRequest) async throws -> FetchResponse {
        try Task.checkCancellation()
        return try await fetch(request, target: try CurlURL(request.url))
    }

    /// ``fetch(_:)`` of a request whose URL libcurl's parser already read as `target`.
    func fetch(_ request: FetchRequest, target: CurlURL) async throws -> FetchResponse {
        try Task.checkCancellation()
        let token = TransferToken()
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                loop.submit(FetchJob(request: request, target: target, token: token, continuation: continuation))
            }
        } onCancel: {
            token.cancel()
            loop.cancel(token, hostKey: target.hostKey)
        }
    }

    /// Stops the thread after failing every pending transfer with ``FetchError/Kind/shutdown``;
    /// returns when the thread has finished. Safe to call more than once.
    public func shutdown() async {
        await loop.stop()
    }

    /// The content encodings sent in `Accept-Encoding` and decoded transparently.
    public static var supportedContentEncodings: [String] { CurlRuntime.supportedEncodings }

    /// The libcurl version in use, e.g. `libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 brotli/1.0.9 zstd/1.5.4 …`.
    public static var libcurlVersion: String { CurlRuntime.version }
}

/// Runs `body` with a new ``Fetcher`` and shuts it down afterwards, also when `body` throws.
public func withFetcher<Result>(
    configuration: FetchConfiguration = FetchConfiguration(),
    logger: Logger = Logger(label: "searchlight.fetching"),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Fetcher) async throws -> Result
) async throws -> Result {
    let fetcher = try Fetcher(configuration: configuration, logger: logger)
    do {
        let result = try await body(fetcher)
        await fetcher.shutdown()
        return result
    } catch {
        await fetcher.shutdown()
        throw error
    }
}
