#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the hosts a client can attach to: the `<name>.<pid>.sock` sockets in the
/// per-user directory, each probed live or stale, and removes stale ones on request.
///
/// The directory is `verify()`d first (real directory, ours, 0700), so sockets
/// planted in a directory someone else controls are never offered. Probing connects
/// briefly to each live host, which sees a connection that closes at once.
public struct SocketDiscovery: Sendable {
    /// The directory searched.
    public let directory: SocketDirectory

    /// Searches `directory` (by default the resolved per-user directory).
    public init(directory: SocketDirectory = .resolve()) {
        self.directory = directory
    }

    /// Every socket whose file name parses as `SocketName`, probed, sorted by name
    /// then pid. Other files are ignored. An absent directory yields an empty list.
    /// Throws `SocketDirectoryError` when the directory is not trustworthy, or
    /// `SocketSystemError` when it cannot be read.
    public func sockets() throws -> [DiscoveredSocket] {
        guard directory.exists else { return [] }
        try directory.verify()
        var found: [DiscoveredSocket] = []
        for (fileName, name) in try socketFileNames() {
            let path = directory.socketPath(for: name)
            guard fileName == name.fileName,
                  let status = SystemCalls.linkStatus(path), SystemCalls.isSocket(status)
            else { continue }
            found.append(DiscoveredSocket(path: path, name: name, liveness: SocketProbe.check(path: path)))
        }
        return found.sorted { left, right in
            left.name.name != right.name.name ? left.name.name < right.name.name : left.name.pid < right.name.pid
        }
    }

    /// The sockets a host answers on.
    public func liveSockets() throws -> [DiscoveredSocket] {
        try sockets().filter(\.isLive)
    }

    /// Removes every socket file nobody serves (probed again just before removal)
    /// and returns those removed. Live sockets and sockets whose state is unknown are kept.
    @discardableResult
    public func removeStaleSockets() throws -> [DiscoveredSocket] {
        var removed: [DiscoveredSocket] = []
        for socket in try sockets() where socket.liveness == .stale {
            guard SocketProbe.check(path: socket.path) == .stale,
                  let status = SystemCalls.linkStatus(socket.path), SystemCalls.isSocket(status),
                  SystemCalls.unlinkPath(socket.path) == 0
            else { continue }
            removed.append(socket)
        }
        return removed
    }

    /// The directory's entries whose names parse as socket names.
    private func socketFileNames() throws -> [(String, SocketName)] {
        guard let handle = opendir(directory.path) else {
            throw SocketSystemError.current("opendir", path: directory.path)
        }
        defer { closedir(handle) }
        var result: [(String, SocketName)] = []
        while let entry = readdir(handle) {
            let fileName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let name = SocketName(fileName: fileName) {
                result.append((fileName, name))
            }
        }
        return result
    }
}
