import Foundation
import InspectorProtocol
import SocketSupport

/// A host an inspector can attach to, as found on disk and greeted over its socket.
public struct HostListing: Sendable {
    /// The socket's path.
    public var socketPath: String
    /// The name and pid from the socket's file name.
    public var name: String
    /// The pid from the socket's file name.
    public var pid: Int
    /// Whether a host answers on it.
    public var isLive: Bool
    /// What the host said in its hello (live hosts only; `nil` if it did not greet).
    public var hello: AgentHello?
    /// Why the socket could not be probed (another user's socket, say), when it could not: such
    /// a socket is neither live nor stale, and must be left alone.
    public var unknownLiveness: String? = nil
}

/// Finds running hosts and picks the one to attach to: the explicit socket (`--socket` or
/// `BRIDGE_INSPECTOR_SOCKET`), or the only live host in the per-user directory.
///
/// ```swift
/// let path = try HostDirectory().resolveSocket(option: socketOption, hostName: nil)
/// ```
public struct HostDirectory: Sendable {
    /// Where sockets are looked for.
    public let discovery: SocketDiscovery

    /// Looks in the per-user directory (or `directory` for tests).
    public init(directory: SocketDirectory = .resolve()) {
        discovery = SocketDiscovery(directory: directory)
    }

    /// Every socket in the directory, live ones greeted for their details.
    public func list(greet: Bool = true) throws -> [HostListing] {
        try discovery.sockets().map { socket in
            var listing = HostListing(socketPath: socket.path, name: socket.name.name, pid: Int(socket.name.pid), isLive: socket.isLive, hello: nil)
            if case .unknown(let error) = socket.liveness {
                listing.unknownLiveness = SocketFileOwner.unknownLivenessReason(path: socket.path, error: error)
            }
            if socket.isLive, greet, let session = try? InspectorSession(socketPath: socket.path, subscribe: false, clientName: "bridge-inspector hosts", timeout: 2) {
                listing.hello = session.hello
                session.close()
            }
            return listing
        }
    }

    /// The socket to attach to: `option` or `BRIDGE_INSPECTOR_SOCKET` when given; else the live
    /// host named `hostName` (when given) or the only live host. Throws ``HostSelectionError``
    /// saying what to do when there is none or more than one.
    public func resolveSocket(option: String?, hostName: String?) throws -> String {
        if case .explicit(let path) = SocketLocation.resolve(option: option) { return path }
        let all = try discovery.sockets()
        var live = all.filter(\.isLive)
        if let hostName {
            live = live.filter { $0.name.name == hostName || "\($0.name.name).\($0.name.pid)" == hostName }
            if live.isEmpty {
                throw HostSelectionError.noSuchHost(name: hostName, directory: discovery.directory.path, clues: Self.clues(all, name: hostName))
            }
        }
        switch live.count {
        case 0: throw HostSelectionError.noHost(directory: discovery.directory.path, clues: Self.clues(all, name: nil))
        case 1: return live[0].path
        default: throw HostSelectionError.several(live.map { "\($0.name.name) (pid \($0.name.pid)): \($0.path)" })
        }
    }
}

extension HostDirectory {
    /// Why no host (of that name) was found, from what the directory holds: the hosts that run
    /// under other names, sockets nobody answers on (a host that crashed), sockets that could
    /// not be probed (another user's), and where else a host may serve. Each clue is one line.
    static func clues(_ sockets: [DiscoveredSocket], name: String?) -> [String] {
        var clues: [String] = []
        let matching = sockets.filter { name == nil || $0.name.name == name || "\($0.name.name).\($0.name.pid)" == name }
        for socket in matching where socket.liveness == .stale {
            clues.append("\(socket.name.name) (pid \(socket.name.pid)) left \(socket.path) behind and no longer answers: it crashed or was killed; run it again")
        }
        for socket in matching {
            if case .unknown(let error) = socket.liveness {
                clues.append("\(socket.path): \(SocketFileOwner.unknownLivenessReason(path: socket.path, error: error))")
            }
        }
        if name != nil {
            let others = sockets.filter(\.isLive).map { "\($0.name.name) (pid \($0.name.pid))" }
            if !others.isEmpty { clues.append("running under other names: " + others.joined(separator: ", ")) }
        }
        clues.append(
            "a host started as another user, or with another BRIDGE_INSPECTOR_SOCKET_DIR (or XDG_RUNTIME_DIR), serves in another directory: give its socket with --socket PATH")
        clues.append("an app on a phone is reached over TCP instead: --connect 127.0.0.1:PORT with its token (docs/real-apps.md)")
        return clues
    }
}

/// Why no single host could be chosen.
public enum HostSelectionError: Error, Sendable, CustomStringConvertible {
    /// No live host in the directory; `clues` say why, one line each (``HostDirectory``).
    case noHost(directory: String, clues: [String] = [])
    /// No live host has the given name; `clues` say why, one line each.
    case noSuchHost(name: String, directory: String, clues: [String] = [])
    /// More than one live host; the caller must choose.
    case several([String])

    public var description: String {
        switch self {
        case .noHost(let directory, let clues):
            return "no running host found in \(directory). Start the demo with `bridge-inspector demo` (or `swift run bridge-inspector demo`), start a host with `bridge-inspector host`, or name a socket with --socket / BRIDGE_INSPECTOR_SOCKET"
                + Self.why(clues)
        case .noSuchHost(let name, let directory, let clues):
            return "no running host named '\(name)' in \(directory); list them with `bridge-inspector hosts`" + Self.why(clues)
        case .several(let hosts):
            return "several hosts are running; choose one with --host NAME or --socket PATH:\n  " + hosts.joined(separator: "\n  ")
        }
    }

    /// The clues, one indented line each under "why it may be:".
    private static func why(_ clues: [String]) -> String {
        clues.isEmpty ? "" : "\nwhy it may be:\n  - " + clues.joined(separator: "\n  - ")
    }
}
