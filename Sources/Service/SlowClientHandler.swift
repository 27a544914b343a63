import NIOCore

/// Closes a connection whose client is too slow for the server to keep waiting on it, with two clocks:
///
/// - **Writing**: a connection that stays unwritable for the write timeout, its client not reading what
///   was sent. The idle timeout does not cover this case (a response is under way), and a client that never
///   reads would otherwise hold its connection, and the answer queued for it, for as long as it likes. A
///   channel is unwritable while more than its high write-buffer mark waits to be sent
///   (``ServiceConfiguration/maxPendingOutputBytes``), so the clock starts once the kernel's send buffer
///   and that much of NIO's are full.
/// - **Request heads**: a request line and headers not whole within the head timeout of their first byte.
///   Each byte resets the idle timeout, so a client could otherwise hold its connection, and one of the
///   `--max-connections` slots, for weeks by sending its headers a byte at a time (the body has a clock of
///   its own in ``ConnectionRulesHandler``). This handler sits before NIO's HTTP/1 decoder, where the bytes
///   arrive; ``ConnectionRulesHandler``, after the decoder, tells it through outbound user events when a
///   head has arrived (``RequestHeadEvent/received``) and when the connection waits for the next one
///   (``RequestHeadEvent/awaited``).
///
/// Runs on the channel's event loop only.
final class SlowClientHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let writeTimeout: TimeAmount
    private let headTimeout: TimeAmount
    private let metrics: ServiceMetrics
    private var writeClock: Scheduled<Void>?
    private var headClock: Scheduled<Void>?
    private var awaitingHead = true

    init(writeTimeout: TimeAmount, headTimeout: TimeAmount, metrics: ServiceMetrics) {
        self.writeTimeout = writeTimeout
        self.headTimeout = headTimeout
        self.metrics = metrics
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            writeClock?.cancel()
            writeClock = nil
        } else if writeClock == nil {
            writeClock = context.eventLoop.assumeIsolated().scheduleTask(in: writeTimeout) {
                self.metrics.connectionsClosedForWriteTimeout.increment()
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if awaitingHead, headClock == nil {
            headClock = context.eventLoop.assumeIsolated().scheduleTask(in: headTimeout) {
                self.metrics.connectionsClosedForSlowHead.increment()
                context.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let event = event as? RequestHeadEvent else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch event {
        case .received:
            awaitingHead = false
            headClock?.cancel()
            headClock = nil
        case .awaited:
            awaitingHead = true
        }
        promise?.succeed(())
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopClocks()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopClocks()
    }

    private func stopClocks() {
        writeClock?.cancel()
        headClock?.cancel()
        writeClock = nil
        headClock = nil
    }
}

@available(*, unavailable)
extension SlowClientHandler: Sendable {}

/// What ``ConnectionRulesHandler`` tells ``SlowClientHandler`` about request heads.
enum RequestHeadEvent {
    /// A request head arrived whole.
    case received
    /// The last request is answered and the connection stays open: the next bytes begin a new head.
    case awaited
}
