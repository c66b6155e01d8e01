import Foundation
import InspectorProtocol
import SocketSupport

/// Where an inspector agent is reached: its Unix socket, or a TCP port (a phone's agent through
/// a USB port forward) with the token the app printed.
///
/// ``description`` never contains the token, so an endpoint can be printed, logged or written
/// into a recording safely.
public enum InspectorEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The Unix socket at this path.
    case unixSocket(path: String)
    /// `host`:`port` over TCP; the first line sent is `{"kind":"auth","token":token}`.
    case tcp(host: String, port: Int, token: String)

    /// The environment variable read for the token when `--token` and the URL give none.
    public static let tokenVariable = WireProtocol.tokenVariable

    /// The socket path, or `tcp://HOST:PORT` (never the token).
    public var description: String {
        switch self {
        case .unixSocket(let path):
            return path
        case .tcp(let host, let port, _):
            return "tcp://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    /// `connect` (a `--connect` value) fit to print: whatever may be a token is hidden. From
    /// the first `?` on, the query is shown as `?…` (a `token=` misspelled still hides its
    /// value), and from any `token` in what is left on, as `token…`.
    ///
    /// ```swift
    /// InspectorEndpoint.redacted("tcp://127.0.0.1:91x3?token=s3cret")  // tcp://127.0.0.1:91x3?…
    /// ```
    public static func redacted(_ connect: String) -> String {
        var shown = Substring(connect)
        if let question = shown.firstIndex(of: "?") { shown = shown[..<question] + "?…" }
        if let token = shown.range(of: "token", options: .caseInsensitive) { shown = shown[..<token.lowerBound] + "token…" }
        return String(shown)
    }

    /// Parses `--connect`: `HOST:PORT`, `[IPv6]:PORT`, or `tcp://HOST:PORT` optionally followed by
    /// `?token=T`. The token is `token` when given, else the URL's, else `environment`'s
    /// ``tokenVariable``. Throws ``InspectorEndpointError`` saying what to write instead.
    public static func parse(
        connect: String, token: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> InspectorEndpoint {
        var rest = Substring(connect)
        var urlToken: String?
        if rest.hasPrefix("tcp://") {
            rest = rest.dropFirst("tcp://".count)
            if let question = rest.firstIndex(of: "?") {
                let query = rest[rest.index(after: question)...]
                rest = rest[..<question]
                for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
                    urlToken = String(pair.dropFirst("token=".count)).removingPercentEncoding
                }
            }
            if rest.hasSuffix("/") { rest = rest.dropLast() }
        }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
            (1...65_535).contains(port)
        else {
            throw InspectorEndpointError.badAddress(connect)
        }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let hostCharacters = host.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || ".-:_%".unicodeScalars.contains($0)) }
        guard !host.isEmpty, hostCharacters else { throw InspectorEndpointError.badAddress(connect) }
        let chosen = [token, urlToken, environment[tokenVariable]].lazy.compactMap { $0 }.first { !$0.isEmpty }
        guard let chosen else { throw InspectorEndpointError.missingToken }
        guard !chosen.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else {
            throw InspectorEndpointError.tokenHasSpace
        }
        return .tcp(host: host, port: port, token: chosen)
    }

    /// Connects (and, over TCP, sends the auth frame), waiting at most `timeout` seconds.
    /// Throws ``InspectorClientError/noHost(socketPath:detail:)`` when nobody listens, or a
    /// socket error.
    func open(timeout: Double) throws -> UnixConnection {
        let milliseconds = PollTimeout.milliseconds(seconds: timeout)
        switch self {
        case .unixSocket(let path):
            do {
                return try UnixConnection.connect(to: path, timeoutMilliseconds: milliseconds)
            } catch let error as SocketSystemError where error.code == ECONNREFUSED || error.code == ENOENT {
                throw InspectorClientError.noHost(socketPath: path, detail: error.description)
            }
        case .tcp(let host, let port, let token):
            let connection: UnixConnection
            do {
                connection = try UnixConnection.connectTCP(host: host, port: port, timeoutMilliseconds: milliseconds)
            } catch let error as SocketSystemError where error.code == ECONNREFUSED || error.code == EHOSTUNREACH {
                throw InspectorClientError.noHost(socketPath: description, detail: error.description)
            }
            do {
                try connection.writeAll(Array(ClientAuth(token: token).frame()), timeoutMilliseconds: milliseconds)
            } catch {
                connection.close()
                throw error
            }
            return connection
        }
    }
}

/// Why `--connect` could not be used.
public enum InspectorEndpointError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `HOST:PORT` or `tcp://HOST:PORT[?token=T]` (the value as given; its description
    /// shows it ``InspectorEndpoint/redacted(_:)``).
    case badAddress(String)
    /// No token in `--token`, `--token-file`, the URL or the environment.
    case missingToken
    /// The token holds a space, newline or control character (a copy-paste slip).
    case tokenHasSpace

    /// The problem and what to write instead.
    public var description: String {
        switch self {
        case .badAddress(let value):
            return "cannot read --connect \(InspectorEndpoint.redacted(value).debugDescription): write HOST:PORT (for example 127.0.0.1:9123) "
                + "or tcp://127.0.0.1:9123?token=T"
        case .missingToken:
            return "--connect needs the host's token: set \(InspectorEndpoint.tokenVariable), or pass --token-file FILE "
                + "(or --token T, which other local users can read with ps); copy it from the app's console line `bridge-inspector: attach over USB ...`"
        case .tokenHasSpace:
            return "the token contains a space, a newline or a control character; copy exactly the token from the app's "
                + "console line `bridge-inspector: attach over USB ...`"
        }
    }
}
