#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import Testing
import SocketSupport

@Suite struct UnixListenerTests {
    @Test func staleSocketIsRemovedAndTheListenerStarts() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/h.1.sock"
            try makeStaleSocket(at: path)
            #expect(isSocketFile(path))
            #expect(SocketProbe.check(path: path) == .stale)

            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let client = try UnixConnection.connect(to: path)
            defer { client.close() }
            let server = try #require(try acceptConnection(listener))
            defer { server.close() }
            #expect(SocketProbe.check(path: path) == .live)
        }
    }

    @Test func liveSocketIsNotTakenOver() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/h.2.sock"
            let first = try UnixListener(path: path)
            defer { first.close() }
            let inode = try #require(linkStatus(path)).st_ino

            let error = try #require(throws: UnixListenerError.self) {
                _ = try UnixListener(path: path)
            }
            #expect(error == .alreadyServing(path: path))
            #expect(error.description.hasPrefix("a live host is already serving \(path)"))
            #expect(try #require(linkStatus(path)).st_ino == inode)

            // The first listener still answers (its backlog also holds the probe's
            // connection, which is already closed).
            let client = try UnixConnection.connect(to: path)
            defer { client.close() }
            try client.writeAll(Array("ping\n".utf8))
            var answered = false
            for _ in 0..<4 where !answered {
                guard let server = try acceptConnection(first) else { break }
                defer { server.close() }
                var framer = LineFramer(maximumLineLength: 64)
                answered = try readLine(from: server, framer: &framer) == Array("ping".utf8)
            }
            #expect(answered)
        }
    }

    @Test func somethingOtherThanASocketIsNotReplaced() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/h.3.sock"
            #expect(FileCreation.create(path, contents: "precious"))
            let error = try #require(throws: UnixListenerError.self) {
                _ = try UnixListener(path: path)
            }
            #expect(error == .notASocket(path: path, kind: "a regular file"))
            #expect(!isSocketFile(path))
            #expect(linkStatus(path)?.st_size == 8)
        }
    }

    @Test func socketIsPrivateNonBlockingAndRemovedOnClose() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/h.4.sock"
            let listener = try UnixListener(path: path)
            #expect(isSocketFile(path))
            #expect(permissionBits(path) == 0o600)
            #expect(try listener.fileDescriptor.isNonBlocking())
            #expect(isCloseOnExec(listener.rawValue))
            guard case .noPendingConnection = try listener.accept() else {
                Issue.record("accept on an idle non-blocking listener should report no pending connection")
                return
            }
            listener.close()
            #expect(linkStatus(path) == nil)
            #expect(listener.rawValue == -1)
            listener.close()
        }
    }

    @Test func closeLeavesASuccessorsSocketAlone() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/h.5.sock"
            let old = try UnixListener(path: path)
            #expect(unlink(path) == 0)
            let successor = try UnixListener(path: path)
            defer { successor.close() }
            old.close()
            #expect(isSocketFile(path))
            #expect(SocketProbe.check(path: path) == .live)
        }
    }

    @Test func listenerInADirectoryEnsuresTheDirectory() throws {
        try withTemporaryDirectory { base in
            let directory = SocketDirectory(path: "\(base)/run")
            let name = SocketName(name: "demo host", pid: getpid())
            let listener = try UnixListener(directory: directory, name: name)
            defer { listener.close() }
            #expect(listener.path == "\(base)/run/demo_host.\(getpid()).sock")
            #expect(permissionBits(directory.path) == 0o700)
            #expect(isSocketFile(listener.path))
        }
    }
}
