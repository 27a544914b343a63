internal import CivilTime

extension Connection {
    /// How long `resetAfterHeaders` waits between the headers and the RST, so the client has read the headers and
    /// is waiting for the body when the reset arrives (the failure it then reports is the interesting one).
    static let pauseBeforeReset: Duration = .milliseconds(50)

    /// Carries out `behaviour` for `request` and tells what happens to the connection afterwards.
    func perform(_ behaviour: FixtureBehaviour, for request: RequestReader.Request) -> Fate {
        switch behaviour {
        case .respond(let status, let headers, let body):
            let head = ResponseHead(status: status, headers: headers.map { (name: $0.0, value: $0.1) })
            return sendComplete(head, body: body, for: request)

        case .redirect(let status, let location):
            return sendComplete(ResponseHead(status: status, headers: [("Location", location)]), body: [], for: request)

        case .retryAfter(let status, let seconds):
            let head = ResponseHead(status: status, headers: [("Retry-After", String(seconds))])
            return sendComplete(head, body: [], for: request)

        case .slowFirstByte(let delay, let next):
            guard socket.stop.pause(for: delay) else { return .abandon }
            return perform(next, for: request)

        case .trickle(let body, let chunkSize, let interval):
            return trickle(body, chunkSize: chunkSize, interval: interval, for: request)

        case .truncated(let body, let declaredLength):
            let head = htmlHead(contentLength: declaredLength)
            // The body is short of what the head promised; closing right after it is the whole point.
            return sendLast(head.bytes + (request.method == "HEAD" ? [] : body)) ? .close : .abandon

        case .resetAfterHeaders:
            guard socket.send(htmlHead(contentLength: 1000).bytes),
                socket.stop.pause(for: Self.pauseBeforeReset)
            else { return .abandon }
            return .reset

        case .hang:
            socket.waitForPeerClose()
            return .abandon

        case .file(let path, let contentType, let contentEncoding):
            guard let bytes = SiteFiles.read(Fixtures.file(path)) else {
                return sendPlainText(status: 404, "fixture file not found: \(Fixtures.file(path).path)", for: request)
            }
            var head = ResponseHead(
                status: 200,
                headers: [("Content-Type", contentType ?? SiteFiles.contentType(forFileName: path))]
            )
            if let contentEncoding {
                head.add("Content-Encoding", contentEncoding)
            }
            return sendComplete(head, body: bytes, for: request)

        case .conditional(let body, let etag, let lastModified, let date, let contentType):
            let notModified = ConditionalRequest.isNotModified(
                ifNoneMatch: request.header("If-None-Match"),
                ifModifiedSince: request.header("If-Modified-Since"),
                etag: etag,
                lastModified: lastModified
            )
            var head = ResponseHead(
                status: notModified ? 304 : 200,
                headers: [("Last-Modified", lastModified), ("Date", date ?? HTTPDate.now())]
            )
            if let etag { head.add("ETag", etag) }
            if !notModified {
                head.add("Content-Type", contentType)
            }
            return sendComplete(head, body: notModified ? [] : body, for: request)

        case .sequence(let steps):
            guard let last = steps.last else {
                return sendPlainText(status: 500, "empty FixtureBehaviour.sequence", for: request)
            }
            let position = core.nextSequencePosition(for: FixtureRequest.route(of: request.target))
            return perform(position < steps.count ? steps[position] : last, for: request)

        case .chunked(let body, let chunkSize, let contentType):
            let head = ResponseHead(
                status: 200,
                headers: [("Content-Type", contentType), ("Transfer-Encoding", "chunked")]
            )
            let payload = request.method == "HEAD" ? [] : Self.chunkedEncoding(body, chunkSize: chunkSize)
            return sendComplete(head, body: payload, for: request)

        case .closeWithoutResponse:
            return .close
        }
    }

    /// Sends the head at once, then `body` in pieces with `interval` between consecutive pieces.
    private func trickle(
        _ body: [UInt8],
        chunkSize: Int,
        interval: Duration,
        for request: RequestReader.Request
    ) -> Fate {
        var head = htmlHead(contentLength: body.count)
        if request.wantsClose {
            head.add("Connection", "close")
        }
        guard request.method != "HEAD" else { return sendLast(head.bytes) ? .keepAlive : .abandon }
        guard !body.isEmpty ? socket.send(head.bytes) : sendLast(head.bytes) else { return .abandon }
        let size = max(1, chunkSize)
        var offset = 0
        while offset < body.count {
            if offset > 0 {
                guard socket.stop.pause(for: interval) else { return .abandon }
            }
            let end = min(offset + size, body.count)
            let piece = Array(body[offset..<end])
            guard end < body.count ? socket.send(piece) : sendLast(piece) else { return .abandon }
            offset = end
        }
        return .keepAlive
    }

    /// A 200 head for an HTML body with the given (possibly untrue) `Content-Length`.
    private func htmlHead(contentLength: Int) -> ResponseHead {
        ResponseHead(
            status: 200,
            headers: [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", String(contentLength))]
        )
    }

    /// `body` in HTTP/1.1 chunked transfer coding (RFC 9112 §7.1), ending with the zero-length chunk.
    static func chunkedEncoding(_ body: [UInt8], chunkSize: Int) -> [UInt8] {
        let size = max(1, chunkSize)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(body.count + body.count / size * 8 + 5)
        var offset = 0
        while offset < body.count {
            let end = min(offset + size, body.count)
            encoded += Array("\(String(end - offset, radix: 16))\r\n".utf8)
            encoded += body[offset..<end]
            encoded += [13, 10]
            offset = end
        }
        encoded += Array("0\r\n\r\n".utf8)
        return encoded
    }
}
