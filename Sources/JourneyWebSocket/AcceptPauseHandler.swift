import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops accepting connections for a while when accepting fails for lack of resources (no file
/// descriptor left, EMFILE or ENFILE; no memory or buffers), then tries again.
///
/// Such a failure leaves the connection in the listening socket's backlog, so the socket stays
/// readable. In SwiftNIO 2.101, the server channel then keeps its read pending and stays
/// registered for readability, so the event loop is woken and fails again at once, for as long as
/// the descriptors are taken: one core at 100 %. SwiftNIO's `AcceptBackoffHandler` only delays
/// the next `read()`, which the channel does not issue in that state, so it does not help here.
/// This handler turns the channel's `autoRead` off, which stops listening for readability, and
/// back on after ``pause``; each new failure pauses again.
final class AcceptPauseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    /// How long accepting pauses after a failure for lack of resources.
    let pause: TimeAmount
    private var resume: Scheduled<Void>?

    init(pause: TimeAmount = .seconds(1)) {
        self.pause = pause
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard resume == nil, let options = context.channel.syncOptions else { return }
        try? options.setOption(.autoRead, value: false)
        let channel = context.channel
        resume = context.eventLoop.assumeIsolated().scheduleTask(in: pause) { [self] in
            resume = nil
            try? channel.syncOptions?.setOption(.autoRead, value: true)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        resume?.cancel()
        resume = nil
    }
}
