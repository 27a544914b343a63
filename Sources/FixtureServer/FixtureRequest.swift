/// One request as the fixture server received it, kept in the server's log in arrival order.
///
/// Tests read the log to check what a client sent: which headers, how often, on which connection, and when.
public struct FixtureRequest: Sendable {
    /// The request method as sent, for example `"GET"`.
    public let method: String

    /// The request target as sent, including any query, for example `"/search?q=tart"`.
    public let path: String

    /// The protocol version from the request line, for example `"HTTP/1.1"`.
    public let version: String

    /// The header fields in the order received, with names and values as sent (values trimmed of surrounding
    /// whitespace, as RFC 9112 allows).
    public let headers: [(name: String, value: String)]

    /// The request body, empty for requests without one.
    public let body: [UInt8]

    /// Which TCP connection carried the request: 1 for the server's first accepted connection, 2 for the second, …
    /// Two requests with the same `connectionID` travelled on one kept-alive connection.
    public let connectionID: Int

    /// When the server had read the complete request head.
    public let receivedAt: ContinuousClock.Instant

    /// Creates a logged request; the server makes these, tests normally only read them.
    public init(
        method: String,
        path: String,
        version: String = "HTTP/1.1",
        headers: [(name: String, value: String)],
        body: [UInt8] = [],
        connectionID: Int,
        receivedAt: ContinuousClock.Instant
    ) {
        self.method = method
        self.path = path
        self.version = version
        self.headers = headers
        self.body = body
        self.connectionID = connectionID
        self.receivedAt = receivedAt
    }

    /// The value of the first header field called `name`, compared case-insensitively, or nil.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The values of every header field called `name`, compared case-insensitively, in the order received.
    public func headerValues(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The path without its query, as behaviours are matched: `"/search"` for `"/search?q=tart"`.
    public var route: String {
        FixtureRequest.route(of: path)
    }

    /// The query without the leading `?`, or nil when the target has none.
    public var query: String? {
        guard let mark = path.firstIndex(of: "?") else { return nil }
        return String(path[path.index(after: mark)...])
    }

    /// The part of a request target before any `?` or `#`.
    static func route(of target: String) -> String {
        if let end = target.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            return String(target[..<end])
        }
        return target
    }
}
