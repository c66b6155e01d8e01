#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where to serve or find inspector sockets: one explicitly named socket, or the
/// per-user directory.
///
/// Resolve it once at start-up: an agent binds `.explicit` paths directly and
/// otherwise creates `<name>.<pid>.sock` in the directory; a client connects to an
/// `.explicit` path directly and otherwise lists the directory with `SocketDiscovery`.
public enum SocketLocation: Sendable, Hashable {
    /// A socket path named by a command-line option or `BRIDGE_INSPECTOR_SOCKET`.
    case explicit(path: String)
    /// The per-user socket directory.
    case directory(SocketDirectory)

    /// Resolves from a command-line `option` and an environment dictionary (for tests
    /// and for callers that already parsed the environment).
    public static func resolve(option: String?, environment: [String: String]) -> SocketLocation {
        if let path = SocketEnvironment.explicitSocketPath(option: option, environment: environment) {
            return .explicit(path: path)
        }
        let userID = geteuid()
        let choice = SocketDirectoryChoice.choose(platform: .current, environment: environment, userID: userID) {
            SocketDirectory.isUsableRuntimeDirectory($0, userID: userID)
        }
        return .directory(choice.directory)
    }

    /// Resolves from a command-line `option` and the process environment.
    public static func resolve(option: String? = nil) -> SocketLocation {
        if let path = SocketEnvironment.explicitSocketPath(option: option) {
            return .explicit(path: path)
        }
        return .directory(SocketDirectory.resolve())
    }
}
