import NIOCore

/// Closes a connection whose request head (request line and headers) has not arrived whole within
/// ``timeout`` of its first byte.
///
/// Each byte resets the idle timeout, so without this a client could hold its connection, and one of the
/// `--max-connections` slots, for weeks by sending its headers a byte at a time; the body has a clock of
/// its own (``ConnectionRulesHandler``). This handler sits before NIO's HTTP/1 decoder, where the bytes
/// arrive; ``ConnectionRulesHandler``, after the decoder, tells it through outbound user events when a
/// head has arrived (``RequestHeadEvent/received``) and when the connection waits for the next one
/// (``RequestHeadEvent/awaited``). Runs on the channel's event loop only.
final class HeadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let metrics: ServiceMetrics
    private var awaitingHead = true
    private var closing: Scheduled<Void>?

    init(timeout: TimeAmount, metrics: ServiceMetrics) {
        self.timeout = timeout
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if awaitingHead, closing == nil {
            closing = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
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
            closing?.cancel()
            closing = nil
        case .awaited:
            awaitingHead = true
        }
        promise?.succeed(())
    }

    func channelInactive(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        closing?.cancel()
        closing = nil
    }
}

@available(*, unavailable)
extension HeadTimeoutHandler: Sendable {}

/// What ``ConnectionRulesHandler`` tells ``HeadTimeoutHandler`` about request heads.
enum RequestHeadEvent {
    /// A request head arrived whole.
    case received
    /// The last request is answered and the connection stays open: the next bytes begin a new head.
    case awaited
}
