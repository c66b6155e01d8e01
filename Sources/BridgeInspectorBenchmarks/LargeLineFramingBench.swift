import Foundation
import SocketSupport

/// What framing one large line costs a client: the large message's line fed in reads of 256 KiB
/// (the client's read buffer) to a framer that expects long lines and has framed one like it,
/// as the client's does, and to a fresh one that grows its buffer step by step, as every framer
/// did before issue 30. Each line is taken as an array of its own, as the client takes it.
/// Measured in the thread's CPU time and minor page faults (the fresh memory touched), which a
/// busy machine disturbs less than wall time.
struct LargeLineFraming {
    /// Median CPU milliseconds to frame the line with a framer expecting long lines that has
    /// framed one like it before.
    var keptBufferMs: Double
    /// Median CPU milliseconds with a fresh framer growing its buffer step by step.
    var freshBufferMs: Double
    /// Median minor page faults of each.
    var keptBufferFaults: Double
    var freshBufferFaults: Double
    var runs: Int

    /// Frames `message` plus its newline `runs` times each way, alternating.
    static func measure(_ message: Data, runs: Int) throws -> LargeLineFraming {
        var line = [UInt8](message)
        line.append(0x0A)
        let read = 256 * 1024
        var kept = LineFramer(maximumLineLength: line.count, expectsLongLines: true)
        // Once, so that the framer expecting long lines knows how long this one is.
        _ = try frame(line, reads: read, with: &kept)
        var keptRuns: [(ms: Double, faults: Int)] = []
        var freshRuns: [(ms: Double, faults: Int)] = []
        for _ in 0..<runs {
            var fresh = LineFramer(maximumLineLength: line.count)
            freshRuns.append(try frame(line, reads: read, with: &fresh))
            keptRuns.append(try frame(line, reads: read, with: &kept))
        }
        return LargeLineFraming(
            keptBufferMs: median(keptRuns.map(\.ms)), freshBufferMs: median(freshRuns.map(\.ms)),
            keptBufferFaults: median(keptRuns.map { Double($0.faults) }), freshBufferFaults: median(freshRuns.map { Double($0.faults) }),
            runs: runs)
    }

    /// CPU milliseconds and minor page faults framing `line` in pieces of `reads` bytes, until
    /// its line is out (and freed, as a client frees it once decoded).
    private static func frame(_ line: [UInt8], reads: Int, with framer: inout LineFramer) throws -> (ms: Double, faults: Int) {
        var lines = 0
        let cost = threadCost {
            inReads(of: reads, line) { read in
                framer.feed(read) { frame in
                    if case .line(let taken) = frame, !taken.isEmpty { lines += 1 }
                }
            }
        }
        guard lines == 1 else { throw BenchError("framing the large line gave \(lines) lines, not 1") }
        return cost
    }
}
