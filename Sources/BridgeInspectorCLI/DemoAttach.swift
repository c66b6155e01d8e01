import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Attaches `bridge-inspector demo` to its child host. (Owned by the inspector: this minimal
/// version only subscribes and prints what the agent sends, one line at a time.)
enum DemoAttach {
    /// Connects to `socketPath`, says hello with a subscription, and prints every line received
    /// until the socket closes or the task is cancelled.
    static func run(socketPath: String) async throws {
        let descriptor = try connect(to: socketPath)
        let hello = #"{"kind":"hello","protocol":1,"client":"bridge-inspector","subscribe":true}"# + "\n"
        guard writeAll(Array(hello.utf8), to: descriptor) else {
            close(descriptor)
            throw AttachError(message: "cannot send the hello to \(socketPath): \(String(cString: strerror(errno)))")
        }
        let cancelled = CancelFlag()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let thread = Thread {
                    readLines(from: descriptor, until: cancelled)
                    close(descriptor)
                    continuation.resume()
                }
                thread.name = "bridge-inspector.demo-attach"
                thread.start()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Why attaching failed.
    struct AttachError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    private final class CancelFlag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    private static func connect(to path: String) throws -> Int32 {
        #if canImport(Darwin)
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw AttachError(message: "socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(descriptor)
            throw AttachError(message: "the socket path is too long (\(bytes.count) bytes; at most \(capacity - 1)): \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw AttachError(message: "cannot connect to \(path): \(reason)")
        }
        return descriptor
    }

    #if canImport(Darwin)
    private static let noSignal: Int32 = 0
    private static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Darwin.connect(descriptor, address, length)
    }
    #else
    private static let noSignal = Int32(MSG_NOSIGNAL)
    private static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.connect(descriptor, address, length)
    }
    #endif

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, noSignal) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    private static func readLines(from descriptor: Int32, until cancelled: CancelFlag) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !cancelled.isSet {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            if count == 0 { return }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                StandardStreams.printOut(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
    }
}
