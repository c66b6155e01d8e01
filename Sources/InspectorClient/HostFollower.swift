import Foundation
import SocketSupport

/// Follows a host by name across runs: every run of an app is a new process with a new socket
/// (`<name>.<pid>.sock`), so an inspector that should stay attached looks the name up again
/// whenever its host has gone, instead of retrying the old socket.
///
/// ```swift
/// let follower = HostFollower(target: HostTarget(parsing: "my-app"))
/// if let found = try follower.newest() { attach(to: found.socket.path) }
/// ```
///
/// Looking up lists the socket directory and probes the live sockets; callers that wait do it
/// every ``pollInterval`` seconds (the interactive inspector every two), never in a busy loop.
public struct HostFollower: Sendable {
    /// Who to follow.
    public let target: HostTarget
    /// Where hosts are looked for.
    public let discovery: SocketDiscovery

    /// How often a caller that waits for a host looks again, in seconds.
    public static let pollInterval = 0.25

    /// Follows `target` in `directory` (the per-user directory by default).
    public init(target: HostTarget, directory: SocketDirectory = .resolve()) {
        self.target = target
        discovery = SocketDiscovery(directory: directory)
    }

    /// The host found, and how many other live hosts had the same name.
    public struct Found: Sendable, Equatable {
        /// The newest live host of the name.
        public var socket: DiscoveredSocket
        /// The other live hosts of that name that were passed over (older ones).
        public var passedOver: [DiscoveredSocket]

        /// For a status line or stderr when others were passed over: "3 hosts named my-app are
        /// running; attached to the newest, pid 4302" (`nil` when it was the only one).
        public var note: String? {
            guard !passedOver.isEmpty else { return nil }
            return "\(passedOver.count + 1) hosts named \(socket.name.name) are running; attached to the newest, pid \(socket.name.pid)"
        }
    }

    /// The newest live host the target names (by socket modification time, then pid), or `nil`
    /// when none is running. A host that is stopping can still be found for a moment (and the
    /// same process is found again after the agent dropped a slow client): callers attach to
    /// what they find and look again when that fails.
    public func newest() throws -> Found? {
        let matching = try discovery.liveSockets().filter(target.matches)
        let ordered = matching.sorted { left, right in
            let (leftTime, rightTime) = (Self.modificationTime(left.path), Self.modificationTime(right.path))
            return leftTime != rightTime ? leftTime > rightTime : left.name.pid > right.name.pid
        }
        guard let first = ordered.first else { return nil }
        return Found(socket: first, passedOver: Array(ordered.dropFirst()))
    }

    private static func modificationTime(_ path: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? .distantPast
    }
}

/// The host a `--host` option names: `NAME` (any process of that name, followed across runs) or
/// `NAME.PID` (exactly that process, never followed).
public struct HostTarget: Sendable, Hashable, CustomStringConvertible {
    /// The host name.
    public var name: String
    /// The one process meant, when the option said `NAME.PID`.
    public var pid: Int32?

    /// Reads `--host` text: a final `.<digits>` after a non-empty name is a pid.
    public init(parsing text: String) {
        if let dot = text.lastIndex(of: "."), dot != text.startIndex,
            case let digits = text[text.index(after: dot)...], !digits.isEmpty,
            digits.allSatisfy({ ("0"..."9").contains($0) }), let pid = Int32(digits), pid > 0
        {
            name = String(text[..<dot])
            self.pid = pid
        } else {
            name = text
            pid = nil
        }
    }

    /// Whether the host is followed across runs (a name without a pid).
    public var follows: Bool { pid == nil }

    /// Whether `socket` is a host this target names. `NAME.PID` also matches a host whose whole
    /// name is `NAME.PID` (names may contain dots).
    public func matches(_ socket: DiscoveredSocket) -> Bool {
        guard let pid else { return socket.name.name == name }
        return (socket.name.name == name && socket.name.pid == pid) || socket.name.name == description
    }

    /// `NAME` or `NAME.PID`, as given.
    public var description: String { pid.map { "\(name).\($0)" } ?? name }
}
