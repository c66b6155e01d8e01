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
        let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
        // A refused handshake (no token, another origin) is answered here; it never became a WebSocket.
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
        switch policy.token.presented(in: head, port: policy.port) {
        case .cookie:
            break
        case .query where path.hasPrefix(WebJourneyPaths.reservedPrefix):
            break  // The bootstrap script (and socket) of a page of another origin, which has no cookie.
        case .query:
            // The URL the host printed: the browser gets the cookie, and goes on to the address
            // without the token, so it stays out of the address bar, the history and bookmarks.
            var headers = HTTPHeaders()
            headers.add(name: "Set-Cookie", value: policy.token.setCookie(port: policy.port))
            let page = Self.landingPage(continuingTo: AccessToken.removingQueryToken(from: head.uri))
            send(Response(status: .ok, contentType: "text/html; charset=utf-8", body: Array(page.utf8), headers: headers), to: head, context: context)
            return
        case .wrong, .nothing:
            let refusal = policy.tokenRefusal(head) ?? "the request carries no token of this host"
            server.refused("request for \(RequestPolicy.printable(path)) refused: \(refusal)")
            send(.text(.forbidden, "Refused: \(refusal).\n", close: true), to: head, context: context)
            return
        }
        guard head.method == .GET || head.method == .HEAD else {
            var headers = HTTPHeaders()
            headers.add(name: "Allow", value: "GET, HEAD")
            send(.text(.methodNotAllowed, "Only GET and HEAD are served.\n", headers: headers), to: head, context: context)
            return
        }
        if path == WebJourneyPaths.bootstrapScript {
            var headers = HTTPHeaders()
            headers.add(name: "Cross-Origin-Resource-Policy", value: "cross-origin")
            send(Response(status: .ok, contentType: "text/javascript; charset=utf-8", body: server.bootstrapScript, headers: headers), to: head, context: context)
            return
        }
        if path.hasPrefix(WebJourneyPaths.reservedPrefix) {
            send(.text(.notFound, "Not found.\n"), to: head, context: context)
            return
        }
        guard let directory = server.directory else {
            send(.text(.notFound, "This host serves no files (it was started without --serve); pages include its bootstrap script, at the address with the token it printed.\n"), to: head, context: context)
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

    /// The page a browser gets for the URL with the token, along with the cookie: it goes on to
    /// `target` at once. Not an HTTP redirect: a navigation that a page of another site started
    /// (a link in a chat) would not send the new `SameSite=Strict` cookie to the redirect's
    /// target, while a navigation this page starts itself does.
    static func landingPage(continuingTo target: String) -> String {
        // Anything that could end the attribute or the script string is percent-encoded; `&` is
        // kept for the query and written as an entity in the attribute.
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?=&%:@!$,;+*()".utf8)
        var encoded = ""
        for byte in target.utf8 {
            if safe.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        if !encoded.hasPrefix("/") || encoded.hasPrefix("//") { encoded = "/" }
        let attribute = encoded.replacingOccurrences(of: "&", with: "&amp;")
        return """
            <!doctype html><meta charset="utf-8"><title>Opening the journey</title>
            <meta http-equiv="refresh" content="0; url=\(attribute)">
            <script>location.replace("\(encoded)");</script>
            <p>This browser may now open the journey: <a href="\(attribute)">continue</a>.</p>

            """
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

extension String {
    /// The string with `0` in front until it has `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
