import SocketSupport
import TestSupport
import Testing

/// The framer against the framer as it was (``ReferenceLineFramer``): on random lines cut into
/// random chunks, expecting long lines or not, the framer gives the same frames, lent or in
/// arrays, and leaves the same state after each chunk.
@Suite struct LineFramerEquivalenceTests {
    /// A random stream for a framer with cap `cap`: lines of every interesting length (empty, one
    /// byte, the cap exactly, one past it, many times it), some ending in `\r\n` or holding a lone
    /// `\r`, and sometimes an unfinished line at the end.
    private static func stream(cap: Int, random: inout SeededRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<(20 + Int(random.next() % 60)) {
            let length: Int
            switch random.next() % 10 {
            case 0: length = 0
            case 1: length = 1
            case 2: length = cap
            case 3: length = cap + 1
            case 4: length = cap - 1
            case 5: length = cap * (2 + Int(random.next() % 4))
            default: length = Int(random.next() % UInt64(cap + 2))
            }
            for _ in 0..<length {
                // Mostly letters, some carriage returns among them.
                bytes.append(random.next() % 16 == 0 ? 0x0D : UInt8(0x61 + random.next() % 26))
            }
            if random.next() % 4 == 0 { bytes.append(0x0D) }
            bytes.append(0x0A)
        }
        if random.next() % 2 == 0 { bytes += Array("unfinished\r".utf8) }
        return bytes
    }

    /// `bytes` cut into chunks: single bytes, small pieces, pieces the size of the cap, and long
    /// ones holding many lines.
    private static func chunks(of bytes: [UInt8], cap: Int, random: inout SeededRandom) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            let size: Int
            switch random.next() % 4 {
            case 0: size = 1
            case 1: size = 1 + Int(random.next() % 8)
            case 2: size = max(1, cap + Int(random.next() % 3) - 1)
            default: size = 1 + Int(random.next() % UInt64(8 * cap + 1))
            }
            let end = min(bytes.count, start + size)
            result.append(bytes[start..<end])
            start = end
        }
        return result
    }

    @Test("expecting long lines or not, random chunkings are framed exactly as by the old framer", arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func framesExactlyAsBefore(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var seen = (lines: 0, empty: 0, atCap: 0, spanning: 0, oversized: 0)
        for round in 0..<40 {
            let cap = [1, 2, 7, 64, 300][Int(random.next() % 5)]
            let strips = random.next() % 4 != 0
            let bytes = Self.stream(cap: cap, random: &random)
            var reference = ReferenceLineFramer(maximumLineLength: cap, stripsCarriageReturn: strips)
            var arrays = LineFramer(maximumLineLength: cap, stripsCarriageReturn: strips)
            var longArrays = LineFramer(maximumLineLength: cap, stripsCarriageReturn: strips, expectsLongLines: true)
            var lent = LineFramer(maximumLineLength: cap, stripsCarriageReturn: strips)
            var longLent = LineFramer(maximumLineLength: cap, stripsCarriageReturn: strips, expectsLongLines: true)
            for chunk in Self.chunks(of: bytes, cap: cap, random: &random) {
                let bufferedBefore = reference.bufferedByteCount
                var expected: [LineFramer.Frame] = []
                chunk.withUnsafeBytes { reference.feed($0) { expected.append($0) } }
                let place = "seed \(seed), round \(round), cap \(cap)"
                #expect(arrays.feed(chunk) == expected, "\(place)")
                #expect(longArrays.feed(chunk) == expected, "\(place)")
                #expect(Self.lentFrames(&lent, chunk) == expected, "\(place)")
                #expect(Self.lentFrames(&longLent, chunk) == expected, "\(place)")
                for framer in [arrays, longArrays, lent, longLent] {
                    #expect(framer.bufferedByteCount == reference.bufferedByteCount, "\(place)")
                    #expect(framer.isSkippingOversizedLine == reference.isSkippingOversizedLine, "\(place)")
                    // An allocation may be rounded up to the allocator's granule.
                    #expect(framer.bufferedCapacity <= cap + 4096, "\(place)")
                }
                // It holds memory exactly when the old framer did (the agent accounts for it). The amounts themselves can differ by the allocator's
                // rounding, which depends on what was freed before.
                #expect((arrays.bufferedCapacity == 0) == (reference.bufferedCapacity == 0), "\(place)")
                // Lines taken as arrays take their buffer with them, long lines expected or not;
                // a lent line's buffer is freed after it.
                for framer in [longArrays, lent, longLent] {
                    #expect((framer.bufferedCapacity == 0) == (reference.bufferedCapacity == 0), "\(place)")
                }
                for (index, frame) in expected.enumerated() {
                    switch frame {
                    case .line(let line):
                        seen.lines += 1
                        if line.isEmpty { seen.empty += 1 }
                        if line.count == cap { seen.atCap += 1 }
                        if index == 0 && bufferedBefore > 0 { seen.spanning += 1 }
                    case .oversized:
                        seen.oversized += 1
                    }
                }
            }
        }
        // The streams met what they are meant to.
        #expect(seen.lines > 200)
        #expect(seen.empty > 10)
        #expect(seen.atCap > 10)
        #expect(seen.spanning > 10)
        #expect(seen.oversized > 10)
    }

    /// What `framer` lends for `chunk`, each line copied out during its call.
    private static func lentFrames(_ framer: inout LineFramer, _ chunk: ArraySlice<UInt8>) -> [LineFramer.Frame] {
        var frames: [LineFramer.Frame] = []
        chunk.withUnsafeBytes { chunk in
            framer.feed(lending: chunk) { frame in
                switch frame {
                case .line(let line): frames.append(.line(Array(line)))
                case .oversized(let count): frames.append(.oversized(byteCount: count))
                }
            }
        }
        return frames
    }

    private struct Stop: Error {}

    @Test("an error thrown while taking a line leaves the framer as the old one", arguments: [5, 6, 7] as [UInt64])
    func errorsLeaveTheSameState(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var thrown = 0
        for _ in 0..<40 {
            let cap = [3, 64][Int(random.next() % 2)]
            let bytes = Self.stream(cap: cap, random: &random)
            var reference = ReferenceLineFramer(maximumLineLength: cap)
            var framers = [
                LineFramer(maximumLineLength: cap), LineFramer(maximumLineLength: cap, expectsLongLines: true),
            ]
            var lentFramers = framers
            for chunk in Self.chunks(of: bytes, cap: cap, random: &random) {
                // Throw at the frame number `stop` of this chunk (often past the last: no throw).
                let stop = Int(random.next() % 4)
                var expected: [LineFramer.Frame] = []
                let referenceThrew = chunk.withUnsafeBytes { chunk in
                    do {
                        try reference.feed(chunk) { frame in
                            if expected.count == stop { throw Stop() }
                            expected.append(frame)
                        }
                        return false
                    } catch { return true }
                }
                if referenceThrew { thrown += 1 }
                for index in framers.indices {
                    var frames: [LineFramer.Frame] = []
                    let threw = chunk.withUnsafeBytes { chunk in
                        do {
                            try framers[index].feed(chunk) { frame in
                                if frames.count == stop { throw Stop() }
                                frames.append(frame)
                            }
                            return false
                        } catch { return true }
                    }
                    #expect(frames == expected)
                    #expect(threw == referenceThrew)
                    #expect(framers[index].bufferedByteCount == reference.bufferedByteCount)
                    #expect(framers[index].isSkippingOversizedLine == reference.isSkippingOversizedLine)
                }
                // Lent lines: the same frames before the throw, the same state after it.
                for index in lentFramers.indices {
                    var frames: [LineFramer.Frame] = []
                    let threw = chunk.withUnsafeBytes { chunk in
                        do {
                            try lentFramers[index].feed(lending: chunk) { frame in
                                if frames.count == stop { throw Stop() }
                                switch frame {
                                case .line(let line): frames.append(.line(Array(line)))
                                case .oversized(let count): frames.append(.oversized(byteCount: count))
                                }
                            }
                            return false
                        } catch { return true }
                    }
                    #expect(frames == expected)
                    #expect(threw == referenceThrew)
                    #expect(lentFramers[index].bufferedByteCount == reference.bufferedByteCount)
                    #expect(lentFramers[index].isSkippingOversizedLine == reference.isSkippingOversizedLine)
                }
            }
        }
        #expect(thrown > 20)
    }
}
