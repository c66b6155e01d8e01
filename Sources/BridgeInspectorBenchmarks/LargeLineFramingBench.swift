import Foundation
import SocketSupport

/// What framing one large line costs a client: the large message's line fed in reads of 256 KiB
/// (the client's read buffer) to a framer that keeps its buffer between lines, as the client's
/// does, and to one that grows a fresh buffer for each line, as every framer did before issue
/// 30. Each line is taken as an array of its own, as the client takes it.
struct LargeLineFraming {
    /// Median milliseconds to frame the line with a framer that has framed one like it before.
    var keptBufferMs: Double
    /// Median milliseconds with a framer that grows a fresh buffer for the line.
    var freshBufferMs: Double
    var runs: Int

    /// Frames `message` plus its newline `runs` times each way, alternating.
    static func measure(_ message: Data, runs: Int) throws -> LargeLineFraming {
        var line = [UInt8](message)
        line.append(0x0A)
        let read = 256 * 1024
        var kept = LineFramer(maximumLineLength: line.count, keepsBuffer: true)
        // Once, so that the kept framer has the buffer a line like this needs.
        _ = try frame(line, reads: read, with: &kept)
        var keptMs: [Double] = []
        var freshMs: [Double] = []
        for _ in 0..<runs {
            var fresh = LineFramer(maximumLineLength: line.count)
            freshMs.append(try frame(line, reads: read, with: &fresh))
            keptMs.append(try frame(line, reads: read, with: &kept))
        }
        return LargeLineFraming(keptBufferMs: median(keptMs), freshBufferMs: median(freshMs), runs: runs)
    }

    /// Milliseconds framing `line` in pieces of `reads` bytes, until its line is out.
    private static func frame(_ line: [UInt8], reads: Int, with framer: inout LineFramer) throws -> Double {
        let start = monotonicNanoseconds()
        var lines = 0
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + reads)
                framer.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) { frame in
                    if case .line(let taken) = frame, !taken.isEmpty { lines += 1 }
                }
                offset = end
            }
        }
        let elapsed = milliseconds(from: start, to: monotonicNanoseconds())
        guard lines == 1 else { throw BenchError("framing the large line gave \(lines) lines, not 1") }
        return elapsed
    }
}
