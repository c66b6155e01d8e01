#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import Testing
import SocketSupport

@Suite struct SocketDiscoveryTests {
    @Test func listsLiveAndStaleSocketsAndRemovesOnlyStaleOnes() throws {
        try withTemporaryDirectory { base in
            let directory = SocketDirectory(path: "\(base)/run")
            try directory.ensure()
            let live = try UnixListener(directory: directory, name: SocketName(name: "alpha", pid: 111))
            defer { live.close() }
            let stalePath = directory.socketPath(for: SocketName(name: "beta", pid: 222))
            try makeStaleSocket(at: stalePath)
            #expect(FileCreation.create(directory.socketPath(for: SocketName(name: "gamma", pid: 333))))
            #expect(FileCreation.create("\(directory.path)/junk.txt"))

            let discovery = SocketDiscovery(directory: directory)
            let found = try discovery.sockets()
            #expect(found == [
                DiscoveredSocket(path: live.path, name: SocketName(name: "alpha", pid: 111), liveness: .live),
                DiscoveredSocket(path: stalePath, name: SocketName(name: "beta", pid: 222), liveness: .stale),
            ])
            #expect(try discovery.liveSockets().map(\.path) == [live.path])

            let removed = try discovery.removeStaleSockets()
            #expect(removed.map(\.path) == [stalePath])
            #expect(linkStatus(stalePath) == nil)
            #expect(isSocketFile(live.path))
            #expect(try discovery.sockets().map(\.name.name) == ["alpha"])
        }
    }

    @Test func missingDirectoryHasNoSockets() throws {
        try withTemporaryDirectory { base in
            let found = try SocketDiscovery(directory: SocketDirectory(path: "\(base)/none")).sockets()
            #expect(found.isEmpty)
        }
    }

    @Test func untrustworthyDirectoryIsNotSearched() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/open"
            #expect(mkdir(path, 0o700) == 0)
            #expect(chmod(path, 0o777) == 0)
            #expect(throws: SocketDirectoryError.insecureMode(path: path, mode: 0o777)) {
                _ = try SocketDiscovery(directory: SocketDirectory(path: path)).sockets()
            }
        }
    }
}
