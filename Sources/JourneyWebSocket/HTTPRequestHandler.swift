import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// Answers plain HTTP requests on one connection: the served files (with the bootstrap injected
/// into top-level HTML pages), the bootstrap script, and refusals. WebSocket handshakes that are
/// accepted never reach it (the upgrader takes them); refused ones do, and get a 403 that says why.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The name the handler has in the pipeline (removed by name after a WebSocket upgrade).
    static let name = "gbgbridge-http"

    private let server: ServerContext
    private var head: HTTPRequestHead?

    init(server: ServerContext) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break  // GET and HEAD carry no body worth reading; anything else is refused below.
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let policy = server.policy
        if let refusal = policy.hostRefusal(head) {
            send(.text(.forbidden, "Refused: \(refusal).\n", close: true), to: head, context: context)
            return
        }
        guard head.method == .GET || head.method == .HEAD else {
            var headers = HTTPHeaders()
            headers.add(name: "Allow", value: "GET, HEAD")
            send(.text(.methodNotAllowed, "Only GET and HEAD are served.\n", headers: headers), to: head, context: context)
            return
        }
        let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
        if path == WebJourneyPaths.bootstrapScript {
            var headers = HTTPHeaders()
            headers.add(name: "Cross-Origin-Resource-Policy", value: "cross-origin")
            send(Response(status: .ok, contentType: "text/javascript; charset=utf-8", body: server.bootstrapScript, headers: headers), to: head, context: context)
            return
        }
        if path == WebJourneyPaths.socket {
            let isHandshake = head.headers["Upgrade"].contains { $0.lowercased() == "websocket" }
            if isHandshake {
                let reason = policy.webSocketRefusal(head) ?? "the WebSocket handshake is invalid"
                server.refused("WebSocket refused: \(reason)")
                send(.text(.forbidden, "Refused: \(reason).\n", close: true), to: head, context: context)
            } else {
                send(.text(.upgradeRequired, "This path only accepts the bridge's WebSocket.\n"), to: head, context: context)
            }
            return
        }
        if path.hasPrefix(WebJourneyPaths.reservedPrefix) {
            send(.text(.notFound, "Not found.\n"), to: head, context: context)
            return
        }
        guard let directory = server.directory else {
            send(.text(.notFound, "This host serves no files (it was started without --serve); pages include \(WebJourneyPaths.bootstrapScript) from it.\n"), to: head, context: context)
            return
        }
        switch directory.resolve(path) {
        case .badRequest(let reason):
            send(.text(.badRequest, "Bad request: \(reason).\n", close: true), to: head, context: context)
        case .forbidden(let reason):
            server.refused("request for \(RequestPolicy.printable(path)) refused: \(reason)")
            send(.text(.forbidden, "Forbidden: \(reason).\n", close: true), to: head, context: context)
        case .notFound(let reason):
            send(.text(.notFound, "Not found: \(reason).\n"), to: head, context: context)
        case .redirect(let location):
            let query = head.uri.dropFirst(path.count)
            var headers = HTTPHeaders()
            headers.add(name: "Location", value: location + query)
            send(.text(.movedPermanently, "Moved to \(location).\n", headers: headers), to: head, context: context)
        case .file(let file):
            guard file.size <= server.configuration.maximumFileBytes else {
                send(.text(.internalServerError, "The file is larger than this server serves (\(server.configuration.maximumFileBytes) bytes).\n"), to: head, context: context)
                return
            }
            // Frames get the page as it is: the bridge is for the top-level frame only.
            let destination = head.headers["Sec-Fetch-Dest"].first?.lowercased()
            let inject = file.isHTML && (destination == nil || destination == "document")
            let loop = context.eventLoop
            let read = server.threadPool.runIfActive(eventLoop: loop) { () throws -> [UInt8] in
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file.path)))
                return inject ? BootstrapInjection.inject(into: bytes) : bytes
            }
            // Completes on this connection's event loop, where the handler and context live.
            read.assumeIsolated().whenComplete { result in
                switch result {
                case .success(let bytes):
                    var headers = HTTPHeaders()
                    if file.isHTML { headers.add(name: "Vary", value: "Sec-Fetch-Dest") }
                    self.send(Response(status: .ok, contentType: file.contentType, body: bytes, headers: headers), to: head, context: context)
                case .failure:
                    self.send(.text(.notFound, "Not found: the file could not be read.\n"), to: head, context: context)
                }
            }
        }
    }

    /// One response to write.
    struct Response {
        var status: HTTPResponseStatus
        var contentType: String
        var body: [UInt8]
        var headers = HTTPHeaders()
        /// Close the connection after this response (refusals), whatever the request asked.
        var close = false

        static func text(_ status: HTTPResponseStatus, _ text: String, headers: HTTPHeaders = HTTPHeaders(), close: Bool = false) -> Response {
            Response(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8), headers: headers, close: close)
        }
    }

    private func send(_ response: Response, to request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = response.headers
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        let keepAlive = request.isKeepAlive && !response.close
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let head = HTTPResponseHead(version: request.version, status: response.status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if request.method != .HEAD, !response.body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // SwiftNIO reports a handshake the policy declined as an error, and then hands the request
        // on to this handler, which answers it with a 403 that says why.
        if error is NIOWebSocketUpgradeError { return }
        context.close(promise: nil)
    }
}
