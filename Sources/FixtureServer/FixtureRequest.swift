/// One request as the fixture server received it, kept in the server's log in arrival order.
///
/// Tests read the log to check what a client sent: which headers, how often, on which connection, and when.
package struct FixtureRequest: Sendable {
    /// The request method as sent, for example `"GET"`.
    package let method: String

    /// The request target as sent, including any query, for example `"/search?q=tart"`.
    package let path: String

    /// The protocol version from the request line, for example `"HTTP/1.1"`.
    package let version: String

    /// The header fields in the order received, with names and values as sent (values trimmed of surrounding
    /// whitespace, as RFC 9112 allows).
    package let headers: [(name: String, value: String)]

    /// The request body, empty for requests without one.
    package let body: [UInt8]

    /// Which TCP connection carried the request: 1 for the server's first accepted connection, 2 for the second, …
    /// Two requests with the same `connectionID` travelled on one kept-alive connection.
    package let connectionID: Int

    /// When the server had read the complete request head.
    package let receivedAt: ContinuousClock.Instant

    /// Creates a logged request; the server makes these, tests normally only read them.
    package init(
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
    package func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The values of every header field called `name`, compared case-insensitively, in the order received.
    package func headerValues(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The path without its query, as behaviours are matched: `"/search"` for `"/search?q=tart"`.
    package var route: String {
        FixtureRequest.route(of: path)
    }

    /// The query without the leading `?`, or nil when the target has none.
    package var query: String? {
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
