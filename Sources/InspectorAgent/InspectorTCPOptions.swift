import Foundation
import InspectorProtocol
import SocketSupport

/// Asks an ``InspectorAgent`` to listen on a TCP port as well as its Unix socket, for a host
/// running on a phone: forward the port over USB (`iproxy 9123 9123`) and attach from the Mac.
///
/// Any process that can reach the port can connect, so every TCP client must first send the
/// token (`{"kind":"auth","token":"..."}`) before the agent sends it anything of the host. The
/// agent logs one line saying how to connect, with the token, through `log`: the only place the
/// token ever appears. Listening on a non-loopback address needs `allowNonLoopback`, and then
/// a loud warning is logged as well.
public struct InspectorTCPOptions: Sendable {
    /// The port to listen on; 0 picks a free one (see ``InspectorAgent/tcpEndpoint``).
    public var port: Int
    /// The token clients must send; `nil` makes a random 256-bit one (64 hex digits). A given
    /// token must be 16 to 128 characters of `A-Z a-z 0-9 . _ ~ -`.
    public var token: String?
    /// The numeric address to bind: `127.0.0.1` (the default) or `::1`.
    public var address: String
    /// Allows an address other than loopback. Anyone on the network who learns the token can
    /// then drive the app.
    public var allowNonLoopback: Bool
    /// Where the connect line (and the non-loopback warning) go; standard error by default.
    public var log: @Sendable (String) -> Void
    /// The pause before the next refusal is sent after the first failure, doubling per failure
    /// up to `maximumDelaySeconds` (internal: tests stretch it to prove the loop is not blocked).
    var firstDelaySeconds = 0.1
    /// The longest pause between two refusals after failures.
    var maximumDelaySeconds = 3.0

    /// Listens on `address`:`port` with `token` (random when `nil`).
    public init(
        port: Int, token: String? = nil, address: String = "127.0.0.1", allowNonLoopback: Bool = false,
        log: @escaping @Sendable (String) -> Void = InspectorTCPOptions.standardError
    ) {
        self.port = port
        self.token = token
        self.address = address
        self.allowNonLoopback = allowNonLoopback
        self.log = log
    }

    /// Writes `line` and a newline to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Where an agent listens over TCP, and the token it wants.
///
/// Its `description` leaves the token out, so printing the endpoint never leaks it.
public struct InspectorTCPEndpoint: Sendable, CustomStringConvertible {
    /// The address bound.
    public let address: String
    /// The port bound.
    public let port: Int
    /// The token a client must send first.
    public let token: String

    /// `127.0.0.1:9123` (`[::1]:9123` for IPv6), without the token.
    public var description: String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    /// The one line the agent logs: how to forward the port and attach, token included. The
    /// command gives the token in the environment, not as `--token`, so that copying it as it is
    /// does not show the token to every local user in the client's arguments (`ps`).
    public var connectLine: String {
        "bridge-inspector: attach over USB: iproxy \(port) \(port), then \(WireProtocol.tokenVariable)=\(token) bridge-inspector --connect \(description)"
    }
}

/// Why TCP options were refused.
public enum InspectorTCPError: Error, Sendable, CustomStringConvertible {
    /// A given token is too short, too long or has characters outside `A-Z a-z 0-9 . _ ~ -`.
    case badToken(length: Int)

    /// The problem and what to do.
    public var description: String {
        switch self {
        case .badToken(let length):
            return "the TCP token must be 16 to 128 characters of A-Z a-z 0-9 . _ ~ - (the one given has \(length) characters "
                + "or others); leave it out to get a random one"
        }
    }
}
