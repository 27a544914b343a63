/// The limits and policies a ``Fetcher`` applies to every transfer.
///
/// The defaults are those of SPEC §3 for a production crawler: only public
/// addresses, bounded bodies and time, at most two transfers per host.
public struct FetchConfiguration: Sendable, Hashable {
    /// The `User-Agent` header sent with every request.
    public var userAgent: String
    /// At most this many transfers run at once, across all hosts.
    public var maxConcurrentTransfers: Int
    /// At most this many transfers run at once against one host (scheme, host and port).
    public var maxTransfersPerHost: Int
    /// Time allowed for name resolution, the TCP connection and the TLS handshake.
    public var connectTimeout: Duration
    /// Time allowed for the whole transfer.
    public var totalTimeout: Duration
    /// A transfer slower than this many bytes per second for ``lowSpeedTime`` is aborted.
    public var lowSpeedLimit: Int
    /// How long a transfer may stay below ``lowSpeedLimit`` (whole seconds, at least one).
    public var lowSpeedTime: Duration
    /// The largest body accepted, counted after content decoding; a larger one is aborted
    /// while it streams, never silently truncated.
    public var maxBodySize: Int
    /// The largest accepted ratio of decoded to wire bytes, checked once the decoded body
    /// passes ``decompressionRatioGrace`` bytes (a defence against compression bombs).
    public var maxDecompressionRatio: Int
    /// Decoded bytes allowed before ``maxDecompressionRatio`` is enforced: small, very
    /// compressible pages are normal.
    public var decompressionRatioGrace: Int
    /// Which peer addresses may be connected to.
    public var addressPolicy: AddressPolicy
    /// A PEM file of certificate authorities to trust instead of the system's (an
    /// intranet's private CA, a test server's self-signed certificate); `nil` for the system store.
    public var caBundlePath: String?

    /// Creates a configuration; every parameter has the production default.
    public init(
        userAgent: String = FetchConfiguration.defaultUserAgent,
        maxConcurrentTransfers: Int = 32,
        maxTransfersPerHost: Int = 2,
        connectTimeout: Duration = .seconds(10),
        totalTimeout: Duration = .seconds(60),
        lowSpeedLimit: Int = 512,
        lowSpeedTime: Duration = .seconds(20),
        maxBodySize: Int = 10 * 1024 * 1024,
        maxDecompressionRatio: Int = 200,
        decompressionRatioGrace: Int = 1024 * 1024,
        addressPolicy: AddressPolicy = .publicOnly,
        caBundlePath: String? = nil
    ) {
        self.userAgent = userAgent
        self.maxConcurrentTransfers = max(1, maxConcurrentTransfers)
        self.maxTransfersPerHost = max(1, maxTransfersPerHost)
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.lowSpeedLimit = max(0, lowSpeedLimit)
        self.lowSpeedTime = lowSpeedTime
        self.maxBodySize = max(0, maxBodySize)
        self.maxDecompressionRatio = max(1, maxDecompressionRatio)
        self.decompressionRatioGrace = max(0, decompressionRatioGrace)
        self.addressPolicy = addressPolicy
        self.caBundlePath = caBundlePath
    }

    /// `Searchlight/<version>`, naming what the crawler is.
    public static let defaultUserAgent = "Searchlight/0.1 (an open App Search crawler; compatible; Applebot-like)"
}
