/// One inspector socket found in the socket directory.
public struct DiscoveredSocket: Sendable, Hashable {
    /// The socket file's full path, ready for `UnixConnection.connect(to:)`.
    public let path: String
    /// The host name and pid parsed from the file name.
    public let name: SocketName
    /// Whether a host answered when probed.
    public let liveness: SocketLiveness

    /// Describes the socket at `path`.
    public init(path: String, name: SocketName, liveness: SocketLiveness) {
        self.path = path
        self.name = name
        self.liveness = liveness
    }

    /// Whether a host answered the probe.
    public var isLive: Bool {
        liveness == .live
    }
}
