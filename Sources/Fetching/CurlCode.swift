/// A libcurl easy-interface result code (`CURLcode`).
///
/// An open set, like GRDB's `ResultCode`: libcurl adds codes over time, and a code this
/// type does not name still round-trips. The names follow
/// https://curl.se/libcurl/c/libcurl-errors.html.
public struct CurlCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric `CURLcode`.
    public let rawValue: Int32

    /// Wraps a numeric `CURLcode`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `CURLE_OK`.
    public static let ok = CurlCode(rawValue: 0)
    /// `CURLE_UNSUPPORTED_PROTOCOL`.
    public static let unsupportedProtocol = CurlCode(rawValue: 1)
    /// `CURLE_URL_MALFORMAT`.
    public static let urlMalformed = CurlCode(rawValue: 3)
    /// `CURLE_COULDNT_RESOLVE_HOST`.
    public static let couldNotResolveHost = CurlCode(rawValue: 6)
    /// `CURLE_COULDNT_CONNECT`.
    public static let couldNotConnect = CurlCode(rawValue: 7)
    /// `CURLE_WEIRD_SERVER_REPLY`.
    public static let weirdServerReply = CurlCode(rawValue: 8)
    /// `CURLE_HTTP2`.
    public static let http2 = CurlCode(rawValue: 16)
    /// `CURLE_PARTIAL_FILE`: the body ended before its announced length.
    public static let partialFile = CurlCode(rawValue: 18)
    /// `CURLE_WRITE_ERROR`: a write callback refused data (Searchlight's size limits).
    public static let writeError = CurlCode(rawValue: 23)
    /// `CURLE_OUT_OF_MEMORY`.
    public static let outOfMemory = CurlCode(rawValue: 27)
    /// `CURLE_OPERATION_TIMEDOUT`: connect, total or low-speed timeout.
    public static let operationTimedOut = CurlCode(rawValue: 28)
    /// `CURLE_SSL_CONNECT_ERROR`.
    public static let sslConnectError = CurlCode(rawValue: 35)
    /// `CURLE_ABORTED_BY_CALLBACK`.
    public static let abortedByCallback = CurlCode(rawValue: 42)
    /// `CURLE_GOT_NOTHING`: the server closed the connection without replying.
    public static let gotNothing = CurlCode(rawValue: 52)
    /// `CURLE_SEND_ERROR`.
    public static let sendError = CurlCode(rawValue: 55)
    /// `CURLE_RECV_ERROR`.
    public static let receiveError = CurlCode(rawValue: 56)
    /// `CURLE_PEER_FAILED_VERIFICATION`.
    public static let peerFailedVerification = CurlCode(rawValue: 60)
    /// `CURLE_BAD_CONTENT_ENCODING`.
    public static let badContentEncoding = CurlCode(rawValue: 61)
    /// `CURLE_FILESIZE_EXCEEDED`.
    public static let fileSizeExceeded = CurlCode(rawValue: 63)
    /// `CURLE_HTTP2_STREAM`.
    public static let http2Stream = CurlCode(rawValue: 92)

    public var description: String { "CURLcode \(rawValue)" }

    /// Lets a `switch` over an error match codes: `case .operationTimedOut:`.
    public static func ~= (pattern: CurlCode, code: CurlCode) -> Bool {
        pattern == code
    }
}
