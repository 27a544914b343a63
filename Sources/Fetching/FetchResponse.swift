/// What one HTTP transfer produced.
///
/// A response is returned for every status code, including redirects (3xx with a
/// ``location``) and `304 Not Modified`; transport failures throw ``FetchError``
/// instead.
public struct FetchResponse: Sendable, Hashable {
    /// The URL that was requested.
    public var url: String
    /// The HTTP status code of the final response (1xx interim responses are skipped).
    public var status: Int
    /// The protocol version that carried the response: `"1.0"`, `"1.1"`, `"2"` or `"3"`.
    public var httpVersion: String
    /// The response header fields in the order received, repeated ones kept.
    public var headers: HTTPHeaders
    /// The body after content decoding (`gzip`, `br`, `zstd`, `deflate`); empty for `HEAD` and `304`.
    public var body: [UInt8]
    /// For a redirect, the `Location` target resolved against ``url``; otherwise `nil`.
    public var location: String?
    /// The number of body bytes that came over the wire, before decoding.
    public var wireBodyBytes: Int
    /// The peer's IP address, as libcurl connected to it.
    public var remoteAddress: String?
    /// The peer's port.
    public var remotePort: Int?
    /// Where the time went.
    public var timings: FetchTimings

    /// Whether this is a redirect that names a target.
    public var isRedirect: Bool {
        (300...399).contains(status) && status != 304 && location != nil
    }

    /// The `Content-Type` header value, if any.
    public var contentType: String? { headers["Content-Type"] }
}

/// Durations of the phases of one transfer, each measured from its start, as libcurl
/// reports them (https://curl.se/libcurl/c/curl_easy_getinfo.html#TIMES).
///
/// A phase that did not happen (no TLS on `http`, a reused connection) is zero.
public struct FetchTimings: Sendable, Hashable {
    /// Until name resolution finished.
    public var nameLookup: Duration
    /// Until the TCP connection was established.
    public var connect: Duration
    /// Until the TLS handshake finished.
    public var tlsHandshake: Duration
    /// Until the first response byte arrived.
    public var firstByte: Duration
    /// The whole transfer.
    public var total: Duration

    /// Creates timings; all zero by default.
    public init(
        nameLookup: Duration = .zero,
        connect: Duration = .zero,
        tlsHandshake: Duration = .zero,
        firstByte: Duration = .zero,
        total: Duration = .zero
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.total = total
    }
}

extension Duration {
    /// The duration in seconds as a `Double`, for reports.
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// Whole milliseconds, rounded down and clamped to `Int` (libcurl's `_MS` options take `long`).
    var wholeMilliseconds: Int {
        let parts = components
        let (product, overflow) = parts.seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? Int.max : Int(product) + Int(parts.attoseconds / 1_000_000_000_000_000)
    }
}
