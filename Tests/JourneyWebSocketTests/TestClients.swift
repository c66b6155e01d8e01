import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import TestSupport
import ThreadSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP response as read off the wire.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: String

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// Sends `request` byte for byte to 127.0.0.1:`port` (so paths reach the server unnormalized)
/// and reads the response until the server closes; every step is bounded by `timeout` seconds.
func rawHTTP(port: Int, _ request: String, timeout: Int = 10) throws -> RawResponse {
    let socket = try loopbackConnection(port: port, timeout: timeout)
    defer { close(socket) }
    try sendAll(socket, request)
    var received = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received.append(contentsOf: buffer[..<count])
    }
    let text = String(decoding: received, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { throw POSIXError(.EBADMSG) }
    let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw POSIXError(.EBADMSG) }
    let headers = lines.dropFirst().compactMap { line -> (String, String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return RawResponse(status: status, headers: headers, body: String(text[split.upperBound...]))
}

/// The `Cookie` header a browser sends once it opened the server's URL with `token`.
func cookieHeader(port: Int, token: String) -> String {
    "Cookie: gbgbridge_\(port)=\(token)"
}

/// Sends all of `text` on `socket`.
func sendAll(_ socket: Int32, _ text: String) throws {
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard count > 0 else { throw POSIXError(.EIO) }
        sent += count
    }
}

/// Reads from `socket` until the other end closes it (true) or a receive times out (false).
func readUntilClosed(_ socket: Int32) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 { continue }
        if count == 0 { return true }
        if errno == EINTR { continue }
        return errno == ECONNRESET
    }
}

/// A GET request with `Connection: close`, carrying the server's cookie with `token` when given.
func getRequest(_ path: String, port: Int, token: String? = nil, host: String? = nil, extra: [String] = []) -> String {
    let cookie = token.map { [cookieHeader(port: port, token: $0)] } ?? []
    return (["GET \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: close"] + cookie + extra + ["", ""]).joined(separator: "\r\n")
}

/// A WebSocket handshake request (refused ones are answered with plain HTTP, read by `rawHTTP`).
func handshakeRequest(port: Int, origin: String?, token: String? = nil, host: String? = nil, path: String = "/__gbgbridge/socket?page=%2F") -> String {
    var lines = [
        "GET \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
    ]
    if let origin { lines.append("Origin: \(origin)") }
    if let token { lines.append(cookieHeader(port: port, token: token)) }
    return (lines + ["", ""]).joined(separator: "\r\n")
}

/// A WebSocket client built from SwiftNIO's client upgrader, standing in for a page's bootstrap.
final class TestPage: Sendable {
    /// What the page received.
    enum Received: Sendable, Equatable {
        case text(String)
        case close(code: UInt16, reason: String)
    }

    let channel: any Channel
    private let group: MultiThreadedEventLoopGroup
    private let box: Locked<[Received]>

    private init(channel: any Channel, group: MultiThreadedEventLoopGroup, box: Locked<[Received]>) {
        self.channel = channel
        self.group = group
        self.box = box
    }

    /// Connects and completes the handshake as a page of `origin` would: with the server's cookie
    /// holding `token`, or with `token` in the socket URL when `tokenInQuery` (a page of another
    /// origin), or with neither when `token` is `nil`.
    static func connect(port: Int, origin: String, path: String = "/index.html", token: String?, tokenInQuery: Bool = false) async throws -> TestPage {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = Locked<[Received]>([])
        let upgraded = group.next().makePromise(of: Void.self)
        let encodedPath = path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "%2F"
        do {
            let channel = try await ClientBootstrap(group: group).connectTimeout(.seconds(5)).channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOWebSocketClientUpgrader(
                        requestKey: "dGhlIHNhbXBsZSBub25jZQ==",
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                channel.pipeline.syncOperations.removeHandler(name: HandshakeSender.name, promise: nil)
                                try channel.pipeline.syncOperations.addHandler(FrameCollector(box: box))
                                upgraded.succeed(())
                            }
                        })
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try channel.pipeline.syncOperations.addHandler(
                        HandshakeSender(
                            host: "127.0.0.1:\(port)", origin: origin,
                            path: "/__gbgbridge/socket?page=\(encodedPath)" + (tokenInQuery ? token.map { "&token=\($0)" } ?? "" : ""),
                            cookie: tokenInQuery ? nil : token.map { String(cookieHeader(port: port, token: $0).dropFirst("Cookie: ".count)) },
                            failed: upgraded),
                        name: HandshakeSender.name)
                }
            }.connect(host: "127.0.0.1", port: port).get()
            try await upgraded.futureResult.get()
            return TestPage(channel: channel, group: group, box: box)
        } catch {
            upgraded.fail(error)
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Sends a text frame (masked, as a browser does).
    func send(_ text: String) async throws {
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
        try await channel.writeAndFlush(frame).get()
    }

    /// Posts a bridge message, as `gbgBridge.postMessage` does.
    func post(_ messageJSON: String) async throws {
        let envelope = try JSONSerialization.data(withJSONObject: ["kind": "post", "text": messageJSON])
        try await send(String(decoding: envelope, as: UTF8.self))
    }

    /// Sends a binary frame.
    func sendBinary(_ bytes: [UInt8]) async throws {
        let frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: ByteBuffer(bytes: bytes))
        try await channel.writeAndFlush(frame).get()
    }

    /// Everything received so far.
    var received: [Received] { box.withLock { $0 } }

    /// The text frames received so far.
    var texts: [String] { received.compactMap { if case .text(let text) = $0 { return text } else { return nil } } }

    /// Waits (bounded) until `condition` holds for what was received.
    func waitFor(timeout: Duration = .seconds(10), _ condition: @escaping @Sendable ([Received]) -> Bool) async -> Bool {
        await waitUntil(timeout: timeout) { condition(received) }
    }

    /// Whether the connection is closed.
    var isClosed: Bool { !channel.isActive }

    /// Closes as a page going away would, and stops the client's thread.
    func close() async {
        if channel.isActive {
            var data = ByteBuffer()
            data.write(webSocketErrorCode: .goingAway)
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
            try? await channel.writeAndFlush(frame).get()
            try? await channel.close()
        }
        try? await group.shutdownGracefully()
    }
}

/// Sends the handshake request once connected.
private final class HandshakeSender: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    static let name = "handshake-sender"

    let host: String
    let origin: String
    let path: String
    let cookie: String?
    let failed: EventLoopPromise<Void>

    init(host: String, origin: String, path: String, cookie: String?, failed: EventLoopPromise<Void>) {
        self.host = host
        self.origin = origin
        self.path = path
        self.cookie = cookie
        self.failed = failed
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: host)
        headers.add(name: "Origin", value: origin)
        if let cookie { headers.add(name: "Cookie", value: cookie) }
        headers.add(name: "Content-Length", value: "0")
        context.write(wrapOutboundOut(.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only reached when the server did not upgrade.
        if case .head(let head) = unwrapInboundIn(data) {
            failed.fail(HandshakeRefused(status: Int(head.status.code)))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failed.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Closed before the upgrade completed (after it, this handler is no longer in the pipeline).
        failed.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}

/// The server answered the handshake without upgrading.
struct HandshakeRefused: Error, Equatable {
    var status: Int
}

/// Collects the frames a test page receives, and answers pings.
private final class FrameCollector: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let box: Locked<[TestPage.Received]>

    init(box: Locked<[TestPage.Received]>) {
        self.box = box
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var data = frame.unmaskedData
            let text = data.readString(length: data.readableBytes) ?? ""
            box.withLock { $0.append(.text(text)) }
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self) ?? 0
            let reason = data.readString(length: data.readableBytes) ?? ""
            box.withLock { $0.append(.close(code: code, reason: reason)) }
            var reply = ByteBuffer()
            reply.writeInteger(code)
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: reply)), promise: nil)
        default:
            break
        }
    }
}
