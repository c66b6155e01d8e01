import BridgeCore
import Foundation
import NIOCore
import NIOWebSocket

/// What a page's WebSocket brings to the host, in order.
enum PageInput: Sendable, Equatable {
    /// A message the page posted, as its JSON text.
    case post(Data)
    /// The page could not run delivery `seq` (counted from 1): `receive` threw, or the frame was not
    /// a delivery script.
    case evaluateFailed(seq: Int, error: String)
    /// A frame that is not part of the bridge's wire format.
    case invalid(String)
    /// A post of the page's ``PageReportChannel`` handler, as its body text.
    case report(String)
    /// A report the page did not send because its frame would have had `bytes` bytes, more than
    /// the host accepts.
    case reportTooLarge(bytes: Int)
    /// A `report` frame without a string `text`.
    case malformedReport

    private struct Envelope: Decodable {
        var kind: String
        var text: String?
        var seq: Int?
        var error: String?
        var bytes: Int?

        private enum CodingKeys: String, CodingKey { case kind, text, seq, error, bytes }

        // Only `kind` must have its type: a field of the wrong type is treated as missing, so the
        // frame is reported for what it is (a `report` without `text` is a malformed report).
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(String.self, forKey: .kind)
            text = try? container.decodeIfPresent(String.self, forKey: .text)
            seq = try? container.decodeIfPresent(Int.self, forKey: .seq)
            error = try? container.decodeIfPresent(String.self, forKey: .error)
            bytes = try? container.decodeIfPresent(Int.self, forKey: .bytes)
        }
    }

    /// Decodes one text frame from the page.
    /// A frame whose text holds a lone UTF-16 surrogate is read with it neutralised
    /// (``LoneSurrogateEscapes``), so the journey's message reaches the host and is refused there
    /// as malformed, with a row and `lastError`, rather than vanishing with the frame.
    static func decode(_ bytes: [UInt8]) -> PageInput {
        guard
            let envelope = (try? JSONDecoding.decode(Envelope.self, from: bytes))
                ?? LoneSurrogateEscapes.escapingLoneSurrogates(bytes).flatMap({ try? JSONDecoding.decode(Envelope.self, from: $0) })
        else {
            return .invalid("a frame that is not a JSON object with a \"kind\"")
        }
        switch envelope.kind {
        case "post":
            guard let text = envelope.text else { return .invalid("a \"post\" frame without \"text\"") }
            return .post(Data(text.utf8))
        case "evaluateFailed":
            guard let seq = envelope.seq, let error = envelope.error else {
                return .invalid("an \"evaluateFailed\" frame without \"seq\" and \"error\"")
            }
            return .evaluateFailed(seq: seq, error: error)
        case "report":
            guard let text = envelope.text else { return .malformedReport }
            return .report(text)
        case "reportTooLarge":
            return .reportTooLarge(bytes: envelope.bytes ?? 0)
        default:
            return .invalid("a frame of unknown kind \"\(RequestPolicy.printable(envelope.kind))\"")
        }
    }
}

/// The page end of one bridge WebSocket, on the connection's event loop: turns the page's frames
/// into ``PageInput`` values for the host, answers pings, and runs the closing handshake.
///
/// Every frame the host sends passes through it, so once a close frame has gone out nothing else
/// follows it. The frames themselves are encoded and decoded by SwiftNIO's WebSocket codec.
final class WebSocketPageHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long to wait for the page's answer to a close frame before closing the connection.
    static let closeTimeout: TimeAmount = .seconds(1)

    private let inputs: AsyncStream<PageInput>.Continuation
    private var sentClose = false

    init(inputs: AsyncStream<PageInput>.Continuation) {
        self.inputs = inputs
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            guard !sentClose else { return }
            var payload = frame.unmaskedData
            inputs.yield(PageInput.decode(payload.readBytes(length: payload.readableBytes) ?? []))
        case .binary:
            sendClose(context: context, code: .unacceptableData, reason: "the bridge carries text frames only")
        case .ping:
            guard !sentClose else { return }
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            break
        case .connectionClose:
            if sentClose {
                context.close(promise: nil)
            } else {
                var payload = frame.unmaskedData
                let code = payload.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
                sentClose = true
                let done = context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)))
                done.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
        default:
            sendClose(context: context, code: .protocolError, reason: "unknown opcode")
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let frame = unwrapOutboundIn(data)
        guard !sentClose else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        if frame.opcode == .connectionClose {
            sentClose = true
            let channel = context.channel
            context.eventLoop.scheduleTask(in: Self.closeTimeout) { channel.close(promise: nil) }
        }
        context.write(data, promise: promise)
    }

    /// Sends a close frame with `code` and `reason`; the connection closes when the page answers
    /// (or after ``closeTimeout``).
    private func sendClose(context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String) {
        guard !sentClose else { return }
        let frame = Self.closeFrame(code: code, reason: reason, allocator: context.channel.allocator)
        write(context: context, data: wrapOutboundOut(frame), promise: nil)
        context.flush()
    }

    /// A close frame with `code` and a reason (cut to fit the 123 bytes a close frame allows).
    static func closeFrame(code: WebSocketErrorCode, reason: String, allocator: ByteBufferAllocator) -> WebSocketFrame {
        var data = allocator.buffer(capacity: 125)
        data.write(webSocketErrorCode: code)
        var utf8 = Array(reason.utf8.prefix(123))
        while !utf8.isEmpty, String(validating: utf8, as: UTF8.self) == nil { utf8.removeLast() }
        data.writeBytes(utf8)
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        inputs.finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        inputs.finish()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is NIOWebSocketFrameAggregator.Error {
            sendClose(context: context, code: .messageTooLarge, reason: "message too large or too fragmented")
        } else {
            context.close(promise: nil)
        }
    }
}
