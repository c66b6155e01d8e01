import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Plain TCP to a `host --serve` process on loopback, byte for byte. Every step is bounded.

/// Sends `request` as is to 127.0.0.1:`port` and returns everything until the server closes (bounded).
func webTCPRequest(port: Int, _ request: String, timeout: Int = 10) throws -> String {
    let descriptor = try loopbackConnection(port: port, timeout: timeout)
    defer { close(descriptor) }
    let bytes = Array(request.utf8)
    guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else { throw POSIXError(.EIO) }
    var received = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received.append(contentsOf: buffer[..<count])
    }
    return String(decoding: received, as: UTF8.self)
}

/// The port and token of the URL a `host --serve` printed (`http://127.0.0.1:<port>/?token=<token>`).
func servedAddress(_ url: String) -> (port: Int, token: String)? {
    guard let components = URLComponents(string: url), components.host == "127.0.0.1", components.path == "/",
        let port = components.port, let token = components.queryItems?.first(where: { $0.name == "token" })?.value,
        components.queryItems?.count == 1
    else { return nil }
    return (port, token)
}
