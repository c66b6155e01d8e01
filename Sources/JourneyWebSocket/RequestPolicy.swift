import NIOHTTP1

/// Who may use the server: the `Host` every request names, the token it carries, and the `Origin`
/// of WebSocket pages.
///
/// Every request must name the server itself as its `Host` (`127.0.0.1:<port>` or
/// `localhost:<port>`), so a web page on another name that resolves to 127.0.0.1 (DNS rebinding)
/// is refused. A WebSocket is opened only for a page of the served origin
/// (`http://127.0.0.1:<port>` or `http://localhost:<port>`) or of an origin allowed explicitly; a
/// handshake without an `Origin` header (not from a browser page) is refused too.
///
/// `Origin` is only what the client says, and any local program can say anything; so every
/// request must also carry the run's ``AccessToken`` (in its cookie or its `token` query
/// parameter), which only the URL the host printed gives.
struct RequestPolicy: Sendable {
    /// The port the server listens on.
    let port: Int
    /// Explicitly allowed origins, normalized.
    let extraOrigins: Set<String>
    /// This run's secret.
    let token: AccessToken

    /// The origins of pages the server itself serves.
    var servedOrigins: [String] { ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] }

    /// Every origin whose pages may open the bridge WebSocket.
    var allowedOrigins: Set<String> { extraOrigins.union(servedOrigins) }

    /// Why a request must be refused because of its `Host` header, or `nil` when it is fine.
    func hostRefusal(_ head: HTTPRequestHead) -> String? {
        let hosts = head.headers["Host"]
        guard hosts.count == 1, let host = hosts.first?.lowercased() else {
            return "the request must name this server in exactly one Host header"
        }
        guard host == "127.0.0.1:\(port)" || host == "localhost:\(port)" else {
            return "Host \"\(Self.printable(host))\" is not this server (127.0.0.1:\(port) or localhost:\(port))"
        }
        return nil
    }

    /// The URL the host prints, with the token left out (for messages).
    var printedURLHint: String { "http://127.0.0.1:\(port)/?\(AccessToken.queryParameter)=..." }

    /// Why a request must be refused because it does not carry this run's token, or `nil` when it does.
    func tokenRefusal(_ head: HTTPRequestHead) -> String? {
        switch token.presented(in: head, port: port) {
        case .cookie, .query:
            return nil
        case .wrong:
            return "the request carries a token that is not this host's (it is from an earlier run, or mistyped): open the URL `bridge-inspector host` printed when it started (\(printedURLHint))"
        case .nothing:
            return "the request carries no token of this host: open the URL `bridge-inspector host` printed when it started (\(printedURLHint)); a page of another origin puts the token on its bootstrap script's URL (see docs/web-journeys.md)"
        }
    }

    /// Why a WebSocket handshake must be refused, or `nil` when it may be accepted. Nothing is
    /// sent to a refused page, and the page attached now stays attached.
    func webSocketRefusal(_ head: HTTPRequestHead) -> String? {
        if let refusal = hostRefusal(head) { return refusal }
        let origins = head.headers["Origin"]
        guard origins.count == 1, let origin = origins.first else {
            return "a WebSocket needs exactly one Origin header: only pages of \(servedOrigins[0]) (or origins allowed with --allow-origin) may connect"
        }
        guard let normalized = WebJourneyConfiguration.normalizedOrigin(origin), allowedOrigins.contains(normalized) else {
            return "origin \"\(Self.printable(origin))\" may not connect: only pages of \(servedOrigins[0]) (or origins allowed with --allow-origin) may"
        }
        return tokenRefusal(head)
    }

    /// Untrusted text made safe to print: printable ASCII only, at most 200 characters.
    static func printable(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars.prefix(200) {
            if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F {
                output.unicodeScalars.append(scalar)
            } else {
                output += "?"
            }
        }
        return text.unicodeScalars.count > 200 ? output + "..." : output
    }
}
