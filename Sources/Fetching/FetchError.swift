/// Why a transfer produced no response.
///
/// HTTP error statuses are not errors: they come back as a ``FetchResponse``. This is
/// for everything that prevented a complete response, with the URL, a readable reason
/// and, where libcurl reported it, the ``CurlCode`` and libcurl's own message.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a crawler needs to tell it apart (retry, record, give up).
    public enum Kind: String, Sendable, Hashable {
        /// The URL could not be parsed.
        case invalidURL
        /// A scheme other than `http` or `https`.
        case unsupportedScheme
        /// The host resolved only to addresses the ``AddressPolicy`` refuses.
        case addressNotAllowed
        /// Name resolution failed.
        case dnsFailure
        /// No connection could be established (refused, unreachable).
        case connectionFailed
        /// Resolution, TCP connect or TLS handshake took longer than the connect timeout.
        case connectTimeout
        /// The whole transfer took longer than the total timeout.
        case totalTimeout
        /// The transfer stayed below the low-speed limit for too long.
        case lowSpeedTimeout
        /// TLS failed: handshake or certificate verification.
        case tls
        /// The connection broke while sending or receiving.
        case connectionReset
        /// The server closed the connection without any response.
        case emptyReply
        /// The body ended before the length the server announced.
        case truncatedBody
        /// The decoded body exceeded the maximum body size.
        case bodyTooLarge
        /// Decoded bytes outgrew wire bytes by more than the maximum ratio.
        case decompressionRatioExceeded
        /// The body could not be decoded with its `Content-Encoding`.
        case badContentEncoding
        /// The server broke HTTP (malformed reply, HTTP/2 stream errors).
        case protocolError
        /// A redirect chain was longer than allowed.
        case tooManyRedirects
        /// A redirect chain came back to a URL it had visited.
        case redirectLoop
        /// The fetcher was shut down before the transfer completed.
        case shutdown
        /// Anything else libcurl reported.
        case other
    }

    /// The category of failure.
    public var kind: Kind
    /// The URL of the failed transfer.
    public var url: String
    /// A readable reason.
    public var message: String
    /// libcurl's result code, when the failure came from libcurl.
    public var curlCode: CurlCode?
    /// For a transfer stopped by a size or ratio limit: the decoded body bytes it held when it
    /// stopped. The body buffer is the only place a transfer keeps data, so this is its memory bound.
    public var heldBodyBytes: Int?

    /// Creates an error.
    public init(kind: Kind, url: String, message: String, curlCode: CurlCode? = nil, heldBodyBytes: Int? = nil) {
        self.kind = kind
        self.url = url
        self.message = message
        self.curlCode = curlCode
        self.heldBodyBytes = heldBodyBytes
    }

    /// Whether trying the same request later may succeed (timeouts, resets, DNS failures).
    public var isTransient: Bool {
        switch kind {
        case .dnsFailure, .connectionFailed, .connectTimeout, .totalTimeout, .lowSpeedTimeout,
            .connectionReset, .emptyReply, .truncatedBody, .protocolError:
            return true
        default:
            return false
        }
    }

    public var description: String {
        "\(url): \(message)" + (curlCode.map { " (\($0))" } ?? "")
    }
}
