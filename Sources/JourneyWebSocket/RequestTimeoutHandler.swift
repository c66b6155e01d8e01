import NIOCore
import NIOHTTP1

/// Closes an HTTP connection that is too slow to send its request, or idle for too long, so a
/// client that opens many connections and never finishes a request ("slowloris") cannot keep
/// them, and with them the host's file descriptors, forever.
///
/// - The request timer starts when the connection opens and again when a response ends; the
///   request must have arrived in full (head and body) before it fires. Bytes that trickle in
///   do not restart it.
/// - Idleness is SwiftNIO's `IdleStateHandler` (at the front of the pipeline, named
///   ``idleHandlerName``); this handler closes the connection when it reports no reads or writes.
///
/// Both are removed when the connection becomes the bridge WebSocket: a journey page may stay
/// quiet for as long as its person needs.
final class RequestTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The handler's name in the pipeline (removed by name after a WebSocket upgrade).
    static let name = "gbgbridge-request-timeout"
    /// The name of the `IdleStateHandler` this handler acts on.
    static let idleHandlerName = "gbgbridge-idle"

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            // The next request on this keep-alive connection gets the same time.
            arm(context: context)
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    private func arm(context: ChannelHandlerContext) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }
}
