#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TestSupport
import SocketSupport

/// Accepts the next connection, polling a bounded number of times.
func acceptConnection(_ listener: UnixListener) throws -> UnixConnection? {
    for _ in 0..<400 {
        _ = try Poll.wait(descriptor: listener.rawValue, for: .readable, timeoutMilliseconds: 50)
        switch try listener.accept() {
        case .accepted(let connection):
            return connection
        case .noPendingConnection:
            continue
        case .rejected(let rejection):
            throw TestSetupError(description: "unexpected rejection: \(rejection)")
        }
    }
    return nil
}

/// Reads until one complete line arrives (bounded): the line, or nil at end of file
/// or when nothing arrives.
func readLine(from connection: UnixConnection, framer: inout LineFramer) throws -> [UInt8]? {
    for _ in 0..<400 {
        guard let bytes = try connection.read(upTo: 4096, timeoutMilliseconds: 50) else { return nil }
        for frame in framer.feed(bytes) {
            if case .line(let line) = frame { return line }
        }
    }
    return nil
}

extension Array where Element == UInt8 {
    init(_ text: String) {
        self = Array(text.utf8)
    }
}
