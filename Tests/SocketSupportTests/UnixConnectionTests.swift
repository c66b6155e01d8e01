#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import Testing
import SocketSupport

@Suite struct UnixConnectionTests {
    @Test func clientAndServerExchangeBytesBothWays() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/x.1.sock"
            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let client = try UnixConnection.connect(to: path)
            defer { client.close() }
            let server = try #require(try acceptConnection(listener))
            defer { server.close() }

            try client.writeAll(Array("{\"hello\":\"agent\"}\n".utf8))
            var serverFramer = LineFramer(maximumLineLength: 1024)
            #expect(try readLine(from: server, framer: &serverFramer) == Array("{\"hello\":\"agent\"}".utf8))

            try server.writeAll(Array("{\"hello\":\"client\"}\n".utf8))
            var clientFramer = LineFramer(maximumLineLength: 1024)
            #expect(try readLine(from: client, framer: &clientFramer) == Array("{\"hello\":\"client\"}".utf8))

            // Accepted and connected sockets are non-blocking and close-on-exec.
            #expect(try server.fileDescriptor.isNonBlocking())
            #expect(try client.fileDescriptor.isNonBlocking())
            #expect(isCloseOnExec(server.rawValue))
            #expect(isCloseOnExec(client.rawValue))
            #expect(try client.read(upTo: 16) == [])

            // End of file once the peer closes.
            server.close()
            #expect(try client.read(upTo: 16, timeoutMilliseconds: 5_000) == nil)
        }
    }

    @Test func peerUserIDIsOurOwnOnBothSides() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/x.2.sock"
            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let client = try UnixConnection.connect(to: path, requireSameUser: true)
            defer { client.close() }
            let server = try #require(try acceptConnection(listener))
            defer { server.close() }
            #expect(listener.allowedUserID == geteuid())
            #expect(try server.peerUserID() == getuid())
            #expect(try client.peerUserID() == getuid())
        }
    }

    @Test func connectingToNobodyFailsWithConnectionRefused() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/x.3.sock"
            try makeStaleSocket(at: path)
            let error = try #require(throws: SocketSystemError.self) {
                _ = try UnixConnection.connect(to: path)
            }
            #expect(error.code == ECONNREFUSED)
            #expect(error.description.contains(path))
            let missing = try #require(throws: SocketSystemError.self) {
                _ = try UnixConnection.connect(to: "\(base)/absent.sock")
            }
            #expect(missing.code == ENOENT)
        }
    }

    /// If SIGPIPE were raised, the default disposition would kill the whole test
    /// process here; getting EPIPE back proves the per-socket suppression. It runs in a test
    /// process of its own: SwiftNIO (used by other suites) ignores SIGPIPE process-wide.
    @Test func writingToAClosedPeerReturnsEPIPEWithoutSIGPIPE() async throws {
        guard IsolatedTestRun.isIsolated else {
            let run = try await IsolatedTestRun.rerun(filter: "writingToAClosedPeerReturnsEPIPEWithoutSIGPIPE")
            #expect(run.passed, "the isolated run failed:\n\(run.output)")
            return
        }
        #expect(sigpipeHasDefaultDisposition(), "SIGPIPE must not be ignored process-wide, or this test proves nothing")
        try withTemporaryDirectory { base in
            let path = "\(base)/x.4.sock"
            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let client = try UnixConnection.connect(to: path)
            defer { client.close() }
            let server = try #require(try acceptConnection(listener))
            server.close()

            var failure: SocketSystemError?
            for _ in 0..<1_000 where failure == nil {
                do {
                    _ = try client.write([UInt8](repeating: 0x41, count: 1_024))
                } catch let error as SocketSystemError {
                    failure = error
                }
            }
            #expect(failure?.code == EPIPE)
            #expect(sigpipeHasDefaultDisposition())
        }
    }

    @Test func writeAllGivesUpOnAPeerThatNeverReads() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/x.5.sock"
            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let client = try UnixConnection.connect(to: path)
            defer { client.close() }
            let server = try #require(try acceptConnection(listener))
            defer { server.close() }
            let bytes = [UInt8](repeating: 0x42, count: 8 * 1024 * 1024)
            let error = try #require(throws: SocketSystemError.self) {
                try client.writeAll(bytes, timeoutMilliseconds: 100)
            }
            #expect(error.code == ETIMEDOUT)
        }
    }

    @Test func closeRunsOnce() throws {
        try withTemporaryDirectory { base in
            let path = "\(base)/x.6.sock"
            let listener = try UnixListener(path: path)
            defer { listener.close() }
            let client = try UnixConnection.connect(to: path, nonBlocking: false)
            #expect(try !client.fileDescriptor.isNonBlocking())
            client.close()
            #expect(client.fileDescriptor.isClosed)
            client.close()
            let error = try #require(throws: SocketSystemError.self) {
                _ = try client.write(Array("x".utf8))
            }
            #expect(error.code == EBADF)
        }
    }
}
