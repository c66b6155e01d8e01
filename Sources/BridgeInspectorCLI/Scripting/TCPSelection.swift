import ArgumentParser
import InspectorClient

/// `--connect HOST:PORT` with the host's token: attach over TCP to an agent listening on a port
/// (a phone's app through `iproxy`, or `bridge-inspector host --listen-tcp PORT`).
///
/// The token is a password: `$BRIDGE_INSPECTOR_TOKEN` or `--token-file` keep it out of the
/// process's arguments, which every local user can read with `ps`; `--token` and the URL's
/// `?token=` put it there and stay for convenience. No error or log line prints it.
struct TCPSelection: ParsableArguments {
    @Option(name: .customLong("connect"), help: ArgumentHelp(
        "Attach over TCP: HOST:PORT (e.g. 127.0.0.1:9123 after `iproxy 9123 9123`), with the token in $BRIDGE_INSPECTOR_TOKEN or --token-file.",
        valueName: "host:port"))
    var connect: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp(
        "Read the token for --connect from the first line of this file (refused if other users can read or write it), or of standard input with -.",
        valueName: "path"), completion: Completions.anyFile)
    var tokenFile: String?

    @Option(name: .customLong("token"), help: ArgumentHelp(
        "The token for --connect, as the app's console line gives it. Visible to every local user (ps) while the command runs: prefer $BRIDGE_INSPECTOR_TOKEN or --token-file.",
        valueName: "token"))
    var token: String?

    /// Whether any of these options was given.
    var isGiven: Bool { connect != nil || token != nil || tokenFile != nil }

    /// The TCP endpoint when `--connect` is given, else nil. Throws ``InspectorEndpointError``,
    /// ``TCPSelectionError`` or ``TokenFileError`` when the options contradict each other or
    /// the token cannot be read.
    func endpoint(socket: String?, host: String?) throws -> InspectorEndpoint? {
        guard let connect else {
            if token != nil || tokenFile != nil { throw TCPSelectionError.tokenWithoutConnect }
            return nil
        }
        if socket != nil || host != nil { throw TCPSelectionError.connectWithSocket }
        if token != nil, tokenFile != nil { throw TCPSelectionError.twoTokens }
        let given = try token ?? tokenFile.map { try TokenFile.read($0) }
        return try InspectorEndpoint.parse(connect: connect, token: given)
    }
}

/// `--connect` combined with options it cannot go with.
enum TCPSelectionError: Error, CustomStringConvertible {
    case connectWithSocket
    case tokenWithoutConnect
    case twoTokens

    var description: String {
        switch self {
        case .connectWithSocket:
            return "--connect attaches over TCP; it cannot be combined with --socket or --host (pick one)"
        case .tokenWithoutConnect:
            return "--token and --token-file only go with --connect HOST:PORT (Unix sockets need no token)"
        case .twoTokens:
            return "give the token once: --token or --token-file, not both"
        }
    }
}
