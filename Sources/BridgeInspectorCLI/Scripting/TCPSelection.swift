import ArgumentParser
import InspectorClient

/// `--connect HOST:PORT --token T`: attach over TCP to an agent listening on a port (a phone's
/// app through `iproxy`, or `bridge-inspector host --listen-tcp PORT`).
struct TCPSelection: ParsableArguments {
    @Option(name: .customLong("connect"), help: ArgumentHelp(
        "Attach over TCP: HOST:PORT (e.g. 127.0.0.1:9123 after `iproxy 9123 9123`) or tcp://HOST:PORT?token=T.",
        valueName: "host:port"))
    var connect: String?

    @Option(name: .customLong("token"), help: ArgumentHelp(
        "The token for --connect, from the app's console line `bridge-inspector: attach over USB ...`. "
            + "Default: the URL's ?token=, else $BRIDGE_INSPECTOR_TOKEN.",
        valueName: "token"))
    var token: String?

    /// The TCP endpoint when `--connect` is given, else nil. Throws ``InspectorEndpointError`` or
    /// ``TCPSelectionError`` when the options contradict each other.
    func endpoint(socket: String?, host: String?) throws -> InspectorEndpoint? {
        guard let connect else {
            if token != nil { throw TCPSelectionError.tokenWithoutConnect }
            return nil
        }
        if socket != nil || host != nil { throw TCPSelectionError.connectWithSocket }
        return try InspectorEndpoint.parse(connect: connect, token: token)
    }
}

/// `--connect` combined with options it cannot go with.
enum TCPSelectionError: Error, CustomStringConvertible {
    case connectWithSocket
    case tokenWithoutConnect

    var description: String {
        switch self {
        case .connectWithSocket:
            return "--connect attaches over TCP; it cannot be combined with --socket or --host (pick one)"
        case .tokenWithoutConnect:
            return "--token only goes with --connect HOST:PORT (Unix sockets need no token)"
        }
    }
}
