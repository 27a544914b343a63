/// One HTTP request for the ``Fetcher``.
///
/// A request is a value: build it, hand it to ``Fetcher/fetch(_:)``, and keep it for
/// logging. Redirects are never followed by the transfer itself; see
/// ``Fetcher/fetchFollowingRedirects(_:maxHops:shouldFollow:)``.
public struct FetchRequest: Sendable, Hashable {
    /// The HTTP method. Only the safe methods a crawler needs are offered.
    public enum Method: String, Sendable, Hashable {
        /// `GET`: headers and body.
        case get = "GET"
        /// `HEAD`: headers only.
        case head = "HEAD"
    }

    /// The absolute `http` or `https` URL to fetch.
    public var url: String
    /// The method; `GET` by default.
    public var method: Method
    /// Extra request header fields, sent in order after the ones the fetcher sets.
    public var headers: HTTPHeaders
    /// The entity tag of a stored copy, sent as `If-None-Match`.
    public var ifNoneMatch: String?
    /// The `Last-Modified` value of a stored copy, sent verbatim as `If-Modified-Since`.
    public var ifModifiedSince: String?
    /// A body limit for this request in place of ``FetchConfiguration/maxBodySize``: sitemaps may
    /// be 50 MB, an apple-app-site-association file at most 128 KB. `nil` uses the configuration's.
    public var maxBodySize: Int?

    /// Creates a request.
    /// - Parameters:
    ///   - url: An absolute `http` or `https` URL.
    ///   - method: `GET` unless you only need the headers.
    ///   - headers: Extra header fields.
    ///   - ifNoneMatch: The stored `ETag`, for a conditional request.
    ///   - ifModifiedSince: The stored `Last-Modified`, for a conditional request.
    ///   - maxBodySize: A decoded-body limit for this request only.
    public init(
        url: String,
        method: Method = .get,
        headers: HTTPHeaders = [],
        ifNoneMatch: String? = nil,
        ifModifiedSince: String? = nil,
        maxBodySize: Int? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.maxBodySize = maxBodySize.map { max(0, $0) }
    }

    /// The header lines this request sends on top of libcurl's own.
    var headerLines: [String] {
        var lines = headers.map { "\($0.name): \($0.value)" }
        if let ifNoneMatch { lines.append("If-None-Match: \(ifNoneMatch)") }
        if let ifModifiedSince { lines.append("If-Modified-Since: \(ifModifiedSince)") }
        return lines
    }
}
