/// One accepted connection, served on its own thread: requests are read and answered one after another
/// (HTTP/1.1 keep-alive) until the client closes, a behaviour ends the connection, or the server stops.
struct Connection {
    /// The client's socket, owned by this connection until `run()` closes it.
    let socket: ClientSocket
    /// The server's shared state.
    let core: ServerCore
    /// The 1-based number of this connection within its server.
    let id: Int

    /// What happens to the connection once a response has been dealt with.
    enum Fate: Equatable {
        /// Read the next request.
        case keepAlive
        /// Send FIN and linger briefly so the client can read everything (see ``ClientSocket/closeGracefully``).
        case close
        /// Close with RST.
        case reset
        /// Close at once: the client has gone or the server is stopping, so there is nobody to be polite to.
        case abandon
    }

    /// Serves requests until the connection ends, then closes it and counts it out.
    func run() {
        var reader = RequestReader(socket: socket)
        var fate = Fate.keepAlive
        while fate == .keepAlive {
            switch reader.next() {
            case .request(let request):
                fate = handle(request)
            case .malformed(let status, let reason):
                fate = rejectMalformed(status: status, reason: reason)
            case .closed, .stopped:
                fate = .abandon
            }
        }
        switch fate {
        case .reset:
            // Counted closed before the client can see the end, so a client that opens its next connection at
            // once never finds this one still counted.
            core.connectionClosed()
            socket.reset()
        case .close:
            // Counted closed once our FIN is on its way: the client sees the end of the connection from here on,
            // and lingering must not inflate the open-connection counts that tests assert on.
            core.connectionClosed()
            socket.closeGracefully()
        case .abandon, .keepAlive:
            core.connectionClosed()
            socket.close()
        }
    }

    /// Logs `request`, answers it with its path's behaviour or a site file, and decides whether to keep going.
    private func handle(_ request: RequestReader.Request) -> Fate {
        let logged = FixtureRequest(
            method: request.method,
            path: request.target,
            version: request.version,
            headers: request.headers,
            body: request.body,
            connectionID: id,
            receivedAt: .now
        )
        let behaviour = core.requestStarted(logged)
        defer { core.requestFinished(onConnection: id) }
        let fate = behaviour.map { perform($0, for: request) } ?? serveSiteFile(for: request)
        return fate == .keepAlive && request.wantsClose ? .close : fate
    }

    /// Answers input that is not a usable request with `status` and a one-line reason, then closes.
    private func rejectMalformed(status: Int, reason: String) -> Fate {
        let body = Array("\(reason)\n".utf8)
        let head = ResponseHead(
            status: status,
            headers: [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("Content-Length", String(body.count)),
                ("Connection", "close"),
            ]
        )
        return socket.send(head.bytes + body) ? .close : .abandon
    }

    /// Serves the file the route names from the site folder, 404 when there is none, 405 for other methods.
    private func serveSiteFile(for request: RequestReader.Request) -> Fate {
        guard request.method == "GET" || request.method == "HEAD" else {
            let head = ResponseHead(status: 405, headers: [("Allow", "GET, HEAD")])
            return sendComplete(head, body: [], for: request)
        }
        guard let root = core.siteRoot,
            let found = SiteFiles.find(route: FixtureRequest.route(of: request.target), in: root)
        else {
            return sendPlainText(status: 404, "Not Found", for: request)
        }
        if let delay = core.siteFileDelay, !socket.stop.pause(for: delay) { return .abandon }
        let body = SiteFiles.substitutingOrigin(in: found, host: request.header("Host"))
        // Like a static file server (nginx), every file has a strong ETag and answers a matching
        // If-None-Match with 304, so re-crawls can be tested against plain fixture sites.
        let etag = SiteFiles.entityTag(of: body)
        if let ifNoneMatch = request.header("If-None-Match"),
            ConditionalRequest.matches(ifNoneMatch: ifNoneMatch, etag: etag)
        {
            return sendComplete(ResponseHead(status: 304, headers: [("ETag", etag)]), body: [], for: request)
        }
        let head = ResponseHead(status: 200, headers: [("Content-Type", found.contentType), ("ETag", etag)])
        return sendComplete(head, body: body, for: request)
    }

    /// Sends a complete response: `head` plus a `Content-Length` for `body` (unless the head already frames the
    /// body, or the status forbids one), then `body` unless the request is HEAD.
    func sendComplete(_ head: ResponseHead, body: [UInt8], for request: RequestReader.Request) -> Fate {
        var head = head
        let statusAllowsBody = !head.forbidsBody
        if statusAllowsBody, !head.has("Content-Length"), !head.has("Transfer-Encoding") {
            head.add("Content-Length", String(body.count))
        }
        let closeRequested = head.headers.contains {
            $0.name.lowercased() == "connection" && $0.value.lowercased().contains("close")
        }
        if request.wantsClose, !closeRequested {
            head.add("Connection", "close")
        }
        let payload = request.method == "HEAD" || !statusAllowsBody ? head.bytes : head.bytes + body
        guard sendLast(payload) else { return .abandon }
        return closeRequested ? .close : .keepAlive
    }

    /// Sends the last bytes of the answer in progress, counting the request answered first (see
    /// ``ServerCore/requestFinished(onConnection:)``).
    func sendLast(_ bytes: [UInt8]) -> Bool {
        core.requestFinished(onConnection: id)
        return socket.send(bytes)
    }

    /// Sends `status` with a short plain-text body.
    func sendPlainText(status: Int, _ text: String, for request: RequestReader.Request) -> Fate {
        let head = ResponseHead(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")])
        return sendComplete(head, body: Array("\(text)\n".utf8), for: request)
    }
}
