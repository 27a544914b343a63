/// What the fixture server does when a request arrives for a path that has a behaviour set.
///
/// Behaviours override the files of the served site. Each one describes a complete exchange, including the ways a
/// real server misbehaves: slow first bytes, bodies that trickle in, bodies shorter than their `Content-Length`,
/// connections reset after the headers, and requests that are never answered. `HEAD` requests get the same status
/// line and headers as `GET`, without a body.
///
/// ```swift
/// await server.setBehaviour(.retryAfter(status: 503, seconds: 2), for: "/busy")
/// await server.setBehaviour(.slowFirstByte(delay: .milliseconds(300), then: .respond(status: 200)), for: "/slow")
/// ```
package indirect enum FixtureBehaviour: Sendable {
    /// Answers with `status`, the given headers in order, and `body`.
    ///
    /// A `Content-Length` matching `body` is added unless `headers` already has one (or a `Transfer-Encoding`), and
    /// never for 1xx, 204 and 304. No `Content-Type` is added: pass one in `headers` when the test needs it.
    case respond(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])

    /// Answers with `status` and a `Location` header carrying `location` exactly as given (absolute or relative).
    case redirect(status: Int = 302, location: String)

    /// Answers with `status` (normally 429 or 503) and `Retry-After: seconds`.
    case retryAfter(status: Int, seconds: Int)

    /// Waits `delay` before sending anything, then behaves as `then`.
    ///
    /// The wait ends early, and the connection closes, when the server stops.
    case slowFirstByte(delay: Duration, then: FixtureBehaviour)

    /// Sends a 200 with `Content-Type: text/html; charset=utf-8` and a correct `Content-Length` at once, then `body`
    /// in `chunkSize`-byte pieces with `interval` between consecutive pieces.
    case trickle(body: [UInt8], chunkSize: Int, interval: Duration)

    /// Sends a 200 with `Content-Length: declaredLength` (meant to exceed `body.count`), then `body`, then closes
    /// the connection normally (FIN), so the client sees a body that ends early.
    case truncated(body: [UInt8], declaredLength: Int)

    /// Sends a 200 status line and headers promising `Content-Length: 1000`, then resets the connection
    /// (`SO_LINGER` 0, so the close sends RST instead of FIN).
    case resetAfterHeaders

    /// Reads the request and never answers; the connection stays open until the client closes it or the server
    /// stops.
    case hang

    /// Serves a file from the fixtures folder verbatim.
    ///
    /// - Parameters:
    ///   - path: the file's path relative to ``Fixtures/root``, for example `"encoded/page.html.gz"`.
    ///   - contentType: the `Content-Type`; by default guessed from the file's extension.
    ///   - contentEncoding: a `Content-Encoding` to declare, for example `"gzip"`; the bytes are sent as stored.
    ///
    /// A missing file is answered with 404 and a plain-text body naming it, so a wrong path shows up in the test.
    case file(String, contentType: String? = nil, contentEncoding: String? = nil)

    /// Answers 200 with `ETag` (none when `etag` is `nil`), `Last-Modified` and `Date`, or 304 with the same
    /// validators and no body when the request's validators match.
    ///
    /// As RFC 9110 §13.2.2 orders it, `If-None-Match` decides when present (a weak comparison against `etag`, or
    /// `*`; never a match without an `etag`); otherwise `If-Modified-Since` gives 304 when its date is equal to or
    /// later than `lastModified`. `lastModified` should be an IMF-fixdate such as `"Tue, 15 Oct 2024 08:00:00
    /// GMT"`. `Date` is `date` as given, else the time of the answer.
    case conditional(
        body: [UInt8], etag: String?, lastModified: String, date: String? = nil, contentType: String = "text/html")

    /// Behaves as the first element for the first request to the path, the second for the second, and so on; the
    /// last element repeats. Handy for "503, then 200" retry tests. An empty list answers 500.
    case sequence([FixtureBehaviour])

    /// Answers 200 with `Transfer-Encoding: chunked` and no `Content-Length`, sending `body` in `chunkSize`-byte
    /// chunks, so the client cannot know the size in advance.
    case chunked(body: [UInt8], chunkSize: Int, contentType: String = "text/html; charset=utf-8")

    /// Reads the request and closes the connection without sending a single byte (an "empty reply").
    case closeWithoutResponse
}

extension FixtureBehaviour {
    /// A 200 answer with an HTML body, for tests that only need some page at a path.
    package static func html(_ text: String, status: Int = 200) -> FixtureBehaviour {
        .respond(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(text.utf8))
    }

    /// A 200 answer with a plain-text body.
    package static func text(_ text: String, status: Int = 200) -> FixtureBehaviour {
        .respond(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }
}
