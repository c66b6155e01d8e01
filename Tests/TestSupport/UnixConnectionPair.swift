import Foundation
import SocketSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected pair of Unix stream sockets (`socketpair`), the first end non-blocking as the
/// agent's loop has its clients' ends, the second blocking: a real socket for writing tests
/// without a listener or a path.
public func unixConnectionPair() throws -> (nonBlocking: UnixConnection, peer: UnixConnection) {
    var descriptors: [Int32] = [0, 0]
    #if canImport(Glibc)
    let type = Int32(SOCK_STREAM.rawValue)
    #else
    let type = SOCK_STREAM
    #endif
    guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
        throw TestSetupError(description: "socketpair failed: errno \(errno)")
    }
    let first = UnixConnection(adopting: FileDescriptor(adopting: descriptors[0]))
    try first.setNonBlocking(true)
    return (first, UnixConnection(adopting: FileDescriptor(adopting: descriptors[1])))
}
