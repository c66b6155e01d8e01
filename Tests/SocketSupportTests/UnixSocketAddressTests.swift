import Testing
import SocketSupport

@Suite struct UnixSocketAddressTests {
    @Test func tooLongPathIsRefusedWithLengthLimitAndAdvice() throws {
        let limit = UnixSocketAddress.maximumPathByteCount
        #if os(Linux)
        #expect(limit == 107)
        #elseif canImport(Darwin)
        #expect(limit == 103)
        #endif
        let path = "/tmp/" + String(repeating: "a", count: 150) + ".sock"
        let error = try #require(throws: UnixSocketAddressError.self) {
            try UnixSocketAddress(path: path)
        }
        #expect(error == .pathTooLong(path: path, byteCount: path.utf8.count, limit: limit))
        let message = error.description
        #expect(message.contains("is \(path.utf8.count) bytes long"))
        #expect(message.contains("at most \(limit) bytes"))
        #expect(message.contains("XDG_RUNTIME_DIR"))
        #expect(message.contains("BRIDGE_INSPECTOR_SOCKET"))
    }

    @Test func listenerRefusesATooLongPathToo() throws {
        let path = "/tmp/" + String(repeating: "b", count: 120)
        #expect(throws: UnixSocketAddressError.pathTooLong(
            path: path, byteCount: path.utf8.count, limit: UnixSocketAddress.maximumPathByteCount
        )) {
            _ = try UnixListener(path: path)
        }
    }

    @Test func pathsUpToTheLimitAreAccepted() throws {
        let limit = UnixSocketAddress.maximumPathByteCount
        let exact = "/tmp/" + String(repeating: "c", count: limit - 5)
        #expect(try UnixSocketAddress(path: exact).path == exact)
        // Non-ASCII counts in bytes, not characters.
        let multiByte = "/tmp/" + String(repeating: "é", count: (limit - 5) / 2 + 1)
        #expect(throws: UnixSocketAddressError.self) { try UnixSocketAddress(path: multiByte) }
    }

    @Test func emptyAndNULPathsAreRefused() {
        #expect(throws: UnixSocketAddressError.emptyPath) { try UnixSocketAddress(path: "") }
        #expect(throws: UnixSocketAddressError.containsNUL(path: "/tmp/a\u{0}b")) {
            try UnixSocketAddress(path: "/tmp/a\u{0}b")
        }
    }
}
