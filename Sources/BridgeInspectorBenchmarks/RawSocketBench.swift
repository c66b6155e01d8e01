import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ThreadSupport

/// The physical limit: the same bytes over a Unix socket, one write per newline-framed
/// message, to a reader thread that only finds the newlines. No JSON work at all.
enum RawSocketBench {
    /// A connected pair of blocking Unix stream sockets.
    static func socketPair() throws -> (writer: Int32, reader: Int32) {
        var descriptors: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            throw BenchError("socketpair failed: errno \(errno)")
        }
        return (descriptors[0], descriptors[1])
    }

    /// Messages per second for `messages` written one write each.
    static func throughput(_ messages: [Data]) throws -> Double {
        let framed: [[UInt8]] = messages.map { Array($0) + [0x0A] }
        let (writer, reader) = try socketPair()
        defer {
            close(writer)
            close(reader)
        }
        let expected = framed.count
        let finishedAt = Locked<UInt64?>(nil)
        let done = DispatchSemaphore(value: 0)
        DedicatedThread.start(name: "bench-raw-reader", stackSize: 1 << 20) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var lines = 0
            while lines < expected {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                lines += buffer.withUnsafeBytes { countNewlines(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
            finishedAt.withLock { $0 = monotonicNanoseconds() }
            done.signal()
        }
        let start = monotonicNanoseconds()
        for frame in framed {
            guard frame.withUnsafeBytes({ writeAll(writer, $0) }) else { throw BenchError("raw socket write failed") }
        }
        done.wait()
        guard let end = finishedAt.current else { throw BenchError("raw socket reader failed") }
        return Double(expected) / seconds(from: start, to: end)
    }

    /// Milliseconds to carry one message of `payload` bytes (plus its newline) to a reader that
    /// holds all of it.
    static func largeMessageMilliseconds(_ payload: Data) throws -> Double {
        var framed = [UInt8](payload)
        framed.append(0x0A)
        let total = framed.count
        let (writer, reader) = try socketPair()
        defer {
            close(writer)
            close(reader)
        }
        let finishedAt = Locked<UInt64?>(nil)
        let done = DispatchSemaphore(value: 0)
        DedicatedThread.start(name: "bench-raw-large-reader", stackSize: 1 << 20) {
            var held = [UInt8]()
            held.reserveCapacity(total)
            var buffer = [UInt8](repeating: 0, count: 256 * 1024)
            while held.last != 0x0A {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                held.append(contentsOf: buffer[0..<count])
            }
            finishedAt.withLock { $0 = monotonicNanoseconds() }
            done.signal()
        }
        let start = monotonicNanoseconds()
        guard framed.withUnsafeBytes({ writeAll(writer, $0) }) else { throw BenchError("raw socket write failed") }
        done.wait()
        guard let end = finishedAt.current else { throw BenchError("raw socket reader failed") }
        return milliseconds(from: start, to: end)
    }

    private static func countNewlines(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, 0x0A, bytes.count - offset) {
            count += 1
            offset = base.distance(to: UnsafeRawPointer(found)) + 1
        }
        return count
    }
}

extension RawSocketBench {
    /// The latency reference: the same messages, paced the same way, written over a raw Unix
    /// socket to a reader thread that notes when each newline arrived. What is left is the
    /// machine: waking a thread and scheduling it, no JSON and no agent.
    @MainActor
    static func latency(count: Int, rate: Double, warmup: Int) async throws -> LatencyResult {
        let total = count + warmup
        let framed: [[UInt8]] = Workload.messages(total, prefix: "raw").map { Array($0) + [0x0A] }
        let (writer, reader) = try socketPair()
        defer {
            close(writer)
            close(reader)
        }
        let arrivals = Locked([UInt64](repeating: 0, count: total))
        let finished = Locked(false)
        DedicatedThread.start(name: "bench-raw-latency-reader", stackSize: 1 << 20) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var line = 0
            while line < total {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                let now = monotonicNanoseconds()
                let lines = buffer.withUnsafeBytes { countNewlines(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                arrivals.withLock { times in
                    for index in line..<min(total, line + lines) { times[index] = now }
                }
                line += lines
            }
            finished.withLock { $0 = true }
        }
        let sentAt = try await paced(total, rate: rate) { index in
            guard framed[index].withUnsafeBytes({ writeAll(writer, $0) }) else { throw BenchError("raw socket write failed") }
        }
        _ = await waitUntil(timeout: 30) { finished.current }
        return LatencyResult.from(sent: sentAt, arrived: arrivals.current, warmup: warmup, rate: rate, gaps: 0)
    }
}
