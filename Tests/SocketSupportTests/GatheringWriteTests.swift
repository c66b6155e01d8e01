#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SocketSupport
import TestSupport
import Testing

/// `UnixConnection.write(gathering:)` (one `sendmsg` of many buffers, what the agent writes a
/// batch of frames with) must put on the wire exactly what writing the buffers' concatenation
/// would: a prefix of it on every call, the rest left for the next, and fail as a plain write
/// fails when the peer is gone.
@Suite("A gathering write")
struct GatheringWriteTests {
    /// A connected pair: a non-blocking writer and its peer.
    private func pair() throws -> (writer: UnixConnection, reader: UnixConnection) {
        let (writer, reader) = try unixConnectionPair()
        return (writer, reader)
    }

    /// Writes `buffers` by gathering writes, reading the peer whenever the socket is full, and
    /// returns what the peer read.
    private func writeAndRead(_ buffers: [[UInt8]], writer: UnixConnection, reader: UnixConnection) throws -> (read: [UInt8], calls: Int) {
        let whole = buffers.flatMap { $0 }
        var offset = 0
        var read: [UInt8] = []
        var calls = 0
        var stalls = 0
        while offset < whole.count {
            // The buffers not written yet, the first cut where the last write stopped.
            var rest: [[UInt8]] = []
            var skipped = 0
            for buffer in buffers {
                if skipped + buffer.count <= offset {
                    skipped += buffer.count
                    continue
                }
                rest.append(Array(buffer.dropFirst(max(0, offset - skipped))))
                skipped += buffer.count
            }
            let result = try Self.withBuffers(rest) { try writer.write(gathering: $0) }
            calls += 1
            switch result {
            case .written(let count):
                #expect(count > 0)
                offset += count
            case .wouldBlock:
                stalls += 1
                try #require(stalls < 10_000, "the peer read nothing for too long")
                if let bytes = try reader.read(upTo: 1 << 20, timeoutMilliseconds: 1_000) { read += bytes }
            }
        }
        writer.close()
        while let bytes = try reader.read(upTo: 1 << 20, timeoutMilliseconds: 5_000), !bytes.isEmpty { read += bytes }
        return (read, calls)
    }

    /// Lends every buffer's bytes at once (nested) for `body`.
    static func withBuffers<Result>(
        _ buffers: [[UInt8]], _ body: (UnsafeBufferPointer<UnsafeRawBufferPointer>) throws -> Result
    ) rethrows -> Result {
        var parts: [UnsafeRawBufferPointer] = []
        func lend(_ index: Int) throws -> Result {
            guard index < buffers.count else { return try parts.withUnsafeBufferPointer { try body($0) } }
            return try buffers[index].withUnsafeBytes { bytes in
                parts.append(bytes)
                return try lend(index + 1)
            }
        }
        return try lend(0)
    }

    @Test("Many small buffers, empty ones among them, arrive whole and in order")
    func smallBuffersInOrder() throws {
        var random = SeededRandom(seed: 41)
        let buffers: [[UInt8]] = (0..<300).map { index in
            let count = index % 17 == 0 ? 0 : Int(random.next() % 400)
            return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        let (writer, reader) = try pair()
        defer { reader.close() }
        let (read, _) = try writeAndRead(buffers, writer: writer, reader: reader)
        #expect(read == buffers.flatMap { $0 })
    }

    @Test("Buffers larger than the socket takes are written in parts, each a prefix of what is left")
    func largeBuffersInParts() throws {
        var random = SeededRandom(seed: 42)
        let buffers: [[UInt8]] = [1, 3_000_000, 0, 70_000, 5, 1_200_000].map { count in
            (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        let (writer, reader) = try pair()
        defer { reader.close() }
        let (read, calls) = try writeAndRead(buffers, writer: writer, reader: reader)
        #expect(read == buffers.flatMap { $0 })
        #expect(calls > 2, "the socket took it all at once: nothing here was written in parts")
    }

    @Test("More buffers than one system call takes: the rest is left, never lost")
    func moreBuffersThanIOVMax() throws {
        let buffers: [[UInt8]] = (0..<3_000).map { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let (writer, reader) = try pair()
        defer { reader.close() }
        let (read, calls) = try writeAndRead(buffers, writer: writer, reader: reader)
        #expect(read == buffers.flatMap { $0 })
        #expect(calls >= 3)
    }

    @Test("Only empty buffers write nothing; a gone peer is an error, as for a plain write")
    func emptyAndGonePeer() throws {
        let (writer, reader) = try pair()
        defer { writer.close() }
        let empty: [[UInt8]] = [[], []]
        #expect(try Self.withBuffers(empty) { try writer.write(gathering: $0) } == .written(0))
        reader.close()
        var failure: SocketSystemError?
        for _ in 0..<1_000 where failure == nil {
            do {
                _ = try Self.withBuffers([[UInt8](repeating: 1, count: 512), [2]]) { try writer.write(gathering: $0) }
            } catch let error as SocketSystemError {
                failure = error
            }
        }
        #expect(failure?.code == EPIPE || failure?.code == ECONNRESET)
    }
}
