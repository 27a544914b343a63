import NIOCore
import NIOHTTP1

/// The HTTP/1 connection rules Hummingbird leaves to the application, applied on each connection between
/// NIO's HTTP/1 codec and Hummingbird's (so it sees the request's version, which Hummingbird's types drop):
///
/// - **When a connection closes.** After a response to an HTTP/1.0 request without `keep-alive`, to a
///   request with `Connection: close`, to a request whose body has not all arrived (a refusal sent before
///   the body was read: the rest of it is not waited for), or a response that says `Connection: close`.
///   Such a response carries `Connection: close`; once it is sent the server sends FIN and closes the
///   connection when the client does, or after ``lingerTime`` of reading and dropping
///   what the client still sends (closing at once could reset the connection before the client has read
///   the response).
/// - **HTTP/1.0.** A response goes out as HTTP/1.0; one without `Content-Length` (a streamed body, which
///   HTTP/1.0 cannot chunk) closes the connection after it.
/// - **HEAD.** Handled as GET, with the same status and headers and no body.
/// - **Request bodies.** A body must arrive by `start + bodyTimeout + received / minBodyRate`; past that
///   the request is answered 408 (when no response has started) and the connection closed.
///
/// Runs on the channel's event loop only.
final class ConnectionRulesHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request and what its response must do, oldest first (HTTP/1.1 allows pipelining).
    private struct Exchange {
        var version: HTTPVersion
        var isHead: Bool
        var keepAlive: Bool
        var bodyComplete = false
        var responseStarted = false
        var closeAfterResponse = false
    }

    private enum State {
        case open
        /// The last response is sent and FIN follows it; what arrives is dropped until the connection closes.
        case lingering
        /// The handler gave up on the connection (a slow body it could not answer): it is closing.
        case closing
    }

    private let configuration: ServiceConfiguration
    private let metrics: ServiceMetrics
    private var exchanges: [Exchange] = []
    private var state = State.open
    private var inputClosed = false
    /// When the body being received started, and its bytes so far.
    private var bodyStart: NIODeadline?
    private var bodyBytes = 0
    private var bodyCheck: Scheduled<Void>?
    private var lingerEnd: Scheduled<Void>?

    /// How long a closing connection goes on reading (and dropping) what its client sends after the last
    /// response, so the client can read that response before the connection is reset.
    static let lingerTime = TimeAmount.seconds(2)

    init(configuration: ServiceConfiguration, metrics: ServiceMetrics) {
        self.configuration = configuration
        self.metrics = metrics
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        bodyCheck?.cancel()
        lingerEnd?.cancel()
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .open = state else { return }  // a request after the last response: dropped
        switch unwrapInboundIn(data) {
        case .head(var head):
            let exchange = Exchange(version: head.version, isHead: head.method == .HEAD, keepAlive: head.isKeepAlive)
            if exchange.isHead { head.method = .GET }
            // Hummingbird stops reading requests after one that says close (exactly this value).
            if !exchange.keepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
            exchanges.append(exchange)
            context.triggerUserOutboundEvent(RequestHeadEvent.received, promise: nil)
            startBodyClock(context: context)
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body(let bytes):
            bodyBytes += bytes.readableBytes
            context.fireChannelRead(data)
        case .end:
            if !exchanges.isEmpty { exchanges[exchanges.count - 1].bodyComplete = true }
            stopBodyClock()
            context.fireChannelRead(data)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if case .lingering = state {
            context.read()  // keep draining until the client closes or the linger ends
        } else {
            context.fireChannelReadComplete()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            if case .lingering = state {
                context.close(promise: nil)
                return
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A body cut short must fail its reader, never read as a complete (truncated) body.
        if let last = exchanges.last, !last.bodyComplete, case .open = state {
            context.fireErrorCaught(ConnectionRulesError.bodyIncomplete)
        }
        bodyCheck?.cancel()
        lingerEnd?.cancel()
        context.fireChannelInactive()
    }

    // MARK: Responses

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .open = state, !exchanges.isEmpty else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            prepare(&head, for: &exchanges[0])
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            if exchanges[0].isHead {
                promise?.succeed(())
            } else {
                context.write(data, promise: promise)
            }
        case .end:
            let exchange = exchanges.removeFirst()
            guard exchange.closeAfterResponse else {
                context.write(data, promise: promise)
                if exchanges.isEmpty { context.triggerUserOutboundEvent(RequestHeadEvent.awaited, promise: nil) }
                return
            }
            state = .lingering
            stopBodyClock()
            context.writeAndFlush(data).assumeIsolated().whenComplete { result in
                promise?.completeWith(result)
                self.linger(context: context)
            }
        }
    }

    /// Sets the response's version and `Connection` header, and whether the connection closes after it.
    private func prepare(_ head: inout HTTPResponseHead, for exchange: inout Exchange) {
        exchange.responseStarted = true
        head.version = exchange.version.minor == 0 ? .http1_0 : .http1_1
        let saysClose = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
        let framed = head.headers.contains(name: "content-length") || exchange.isHead
        exchange.closeAfterResponse =
            !exchange.keepAlive || !exchange.bodyComplete || saysClose || (exchange.version.minor == 0 && !framed)
        if exchange.closeAfterResponse {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        } else if exchange.version.minor == 0 {
            head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
        }
    }

    /// Half-closes after the last response and drops what arrives until the client closes or the linger ends.
    private func linger(context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        if inputClosed {
            context.close(promise: nil)
            return
        }
        context.close(mode: .output, promise: nil)
        lingerEnd = context.eventLoop.assumeIsolated().scheduleTask(in: Self.lingerTime) {
            context.close(promise: nil)
        }
        context.read()
    }

    // MARK: The body clock

    private func startBodyClock(context: ChannelHandlerContext) {
        bodyStart = .now()
        bodyBytes = 0
        scheduleBodyCheck(at: .now() + .seconds(Int64(configuration.bodyTimeoutSeconds)), context: context)
    }

    private func stopBodyClock() {
        bodyStart = nil
        bodyCheck?.cancel()
        bodyCheck = nil
    }

    private func scheduleBodyCheck(at deadline: NIODeadline, context: ChannelHandlerContext) {
        bodyCheck?.cancel()
        bodyCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.checkBody(context: context)
        }
    }

    /// Refuses the body under way when it is past its deadline, else checks again at the deadline its bytes
    /// have earned so far.
    private func checkBody(context: ChannelHandlerContext) {
        guard let start = bodyStart, case .open = state else { return }
        let earned = Double(bodyBytes) / Double(max(configuration.minBodyBytesPerSecond, 1))
        let deadline =
            start + .seconds(Int64(configuration.bodyTimeoutSeconds)) + .nanoseconds(Int64(min(earned, 1e9) * 1e9))
        guard deadline <= .now() else {
            scheduleBodyCheck(at: deadline, context: context)
            return
        }
        stopBodyClock()
        metrics.connectionsClosedForSlowBody.increment()
        let canAnswer = exchanges.count == 1 && !exchanges[0].responseStarted
        exchanges.removeAll()
        if canAnswer {
            state = .lingering
            for part in Self.slowBodyAnswer() { context.write(wrapOutboundOut(part), promise: nil) }
            context.flush()
            linger(context: context)
        } else {
            state = .closing
            context.close(promise: nil)
        }
        // The body's reader fails: what arrived is not the whole body.
        context.fireErrorCaught(ConnectionRulesError.bodyTooSlow)
    }

    /// 408 in SPEC §6's error shape, with the security headers, closing the connection.
    private static func slowBodyAnswer() -> [HTTPServerResponsePart] {
        let body = ServiceError.body(message: "the request body arrived too slowly")
        var headers = HTTPHeaders(SecurityHeaders.fields)
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: String(body.count))
        headers.add(name: "connection", value: "close")
        return [
            .head(HTTPResponseHead(version: .http1_1, status: .requestTimeout, headers: headers)),
            .body(.byteBuffer(ByteBuffer(bytes: body))), .end(nil),
        ]
    }
}

/// Why the rules ended a request.
enum ConnectionRulesError: Error {
    /// The connection closed before the request body ended.
    case bodyIncomplete
    /// The request body arrived more slowly than the minimum rate allows.
    case bodyTooSlow
}

@available(*, unavailable)
extension ConnectionRulesHandler: Sendable {}
