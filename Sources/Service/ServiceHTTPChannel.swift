import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The server's HTTP/1 connection: Hummingbird's `HTTP1Channel` pipeline with the service's limits in it.
///
/// From the socket inward: ``SlowClientHandler`` (a client that stops reading, or sends a request head too
/// slowly, is closed), NIO's HTTP/1 codec, ``ConnectionRulesHandler`` (HTTP/1.0, HEAD, closing instead of draining, the body clock),
/// Hummingbird's conversion to HTTP types and its idle timeout. Each connection is tracked in
/// ``OpenConnections``, and what is queued for it is bounded: NIO's high write-buffer mark
/// (``ServiceConfiguration/maxPendingOutputBytes``) and the kernel's send buffer
/// (``ServiceConfiguration/sendBufferBytes``). Requests are then answered by Hummingbird's own loop.
struct ServiceHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let configuration: ServiceConfiguration
    let connections: OpenConnections
    let metrics: ServiceMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let pending = configuration.maxPendingOutputBytes
            try channel.syncOptions?.setOption(
                ChannelOptions.writeBufferWaterMark, value: .init(low: pending / 2, high: pending))
            try channel.syncOptions?.setOption(
                ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(configuration.sendBufferBytes))
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(
                SlowClientHandler(
                    writeTimeout: .seconds(Int64(configuration.writeTimeoutSeconds)),
                    headTimeout: .seconds(Int64(configuration.headTimeoutSeconds)), metrics: metrics))
            // Errors are answered by the application; outbound headers are checked by HTTP types already.
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false)
            try pipeline.addHandler(ConnectionRulesHandler(configuration: configuration, metrics: metrics))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(
                HTTPConnectionStateHandler(idleTimeout: .seconds(configuration.idleTimeoutSeconds), logger: logger))
            connections.add(channel)
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
