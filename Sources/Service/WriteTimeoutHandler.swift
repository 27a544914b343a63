import NIOCore

/// Closes a connection that stays unwritable for ``timeout``: its client stopped reading while the server
/// had more to send.
///
/// The idle timeout does not cover this case (a response is under way), and a client that never reads
/// would otherwise hold its connection, and the response bytes queued for it, for as long as it likes.
/// A channel is unwritable while more than its high write-buffer mark waits to be sent
/// (``ServiceConfiguration/maxPendingOutputBytes``), so the clock starts only once the kernel's socket
/// buffers and that much of NIO's are full. Runs on the channel's event loop only.
final class WriteTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let metrics: ServiceMetrics
    private var closing: Scheduled<Void>?

    init(timeout: TimeAmount, metrics: ServiceMetrics) {
        self.timeout = timeout
        self.metrics = metrics
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            closing?.cancel()
            closing = nil
        } else if closing == nil {
            closing = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                self.metrics.connectionsClosedForWriteTimeout.increment()
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
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
extension WriteTimeoutHandler: Sendable {}
