import Testing
import SocketSupport

@Suite struct LineFramerTests {
    private func lines(_ frames: [LineFramer.Frame]) -> [String] {
        frames.map { frame in
            switch frame {
            case .line(let bytes): return String(decoding: bytes, as: UTF8.self)
            case .oversized(let count): return "<oversized \(count)>"
            }
        }
    }

    @Test func byteByByteFeedingYieldsTheSameLines() {
        let input = Array("{\"a\":1}\n\n{\"b\":\"two\"}\nlast\n".utf8)
        var framer = LineFramer(maximumLineLength: 64)
        var frames: [LineFramer.Frame] = []
        for byte in input {
            frames += framer.feed([byte])
        }
        #expect(lines(frames) == ["{\"a\":1}", "", "{\"b\":\"two\"}", "last"])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func manyLinesInOneChunkAndAPartialTail() {
        var framer = LineFramer(maximumLineLength: 64)
        let chunk = (0..<500).map { "line \($0)\n" }.joined() + "unfinished"
        let frames = framer.feed(Array(chunk.utf8))
        #expect(frames.count == 500)
        #expect(lines(frames).first == "line 0")
        #expect(lines(frames).last == "line 499")
        #expect(framer.bufferedByteCount == "unfinished".utf8.count)
        #expect(lines(framer.feed(Array(" now\n".utf8))) == ["unfinished now"])
    }

    @Test func twoMebibytesWithoutNewlineIsOneOversizedFrameWithBoundedMemory() {
        let cap = 64 * 1024
        var framer = LineFramer(maximumLineLength: cap)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
        var frames: [LineFramer.Frame] = []
        for _ in 0..<(2 * 1024 * 1024 / chunk.count) {
            frames += framer.feed(chunk)
            #expect(framer.bufferedByteCount <= cap)
        }
        #expect(frames == [.oversized(byteCount: cap + chunk.count)])
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.isSkippingOversizedLine)
        // The rest of the long line is skipped; the next line is framed normally.
        let after = framer.feed(Array("tail of the long line\n{\"ok\":true}\n".utf8))
        #expect(lines(after) == ["{\"ok\":true}"])
        #expect(!framer.isSkippingOversizedLine)
    }

    @Test("an unfinished line never takes more memory than the cap (the agent's memory bound counts it)")
    func unfinishedLineCapacityStaysWithinTheCap() {
        // A cap that is not a power of two: plain doubling would pass it by almost half.
        let cap = 600 * 1024
        var framer = LineFramer(maximumLineLength: cap)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        while framer.bufferedByteCount + chunk.count <= cap {
            #expect(framer.feed(chunk).isEmpty)
            // An allocation may be rounded up to the allocator's granule (a page at most).
            #expect(framer.bufferedCapacity <= cap + 4096, "capacity \(framer.bufferedCapacity) for \(framer.bufferedByteCount) bytes")
        }
        #expect(framer.bufferedByteCount > cap - chunk.count)
    }

    @Test func oversizedLineInsideOneChunkDoesNotDisturbItsNeighbours() {
        var framer = LineFramer(maximumLineLength: 8)
        let frames = framer.feed(Array("12345678\n123456789\nok\n".utf8))
        #expect(frames == [.line(Array("12345678".utf8)), .oversized(byteCount: 9), .line(Array("ok".utf8))])
    }

    @Test func carriageReturnsBeforeNewlinesAreStripped() {
        var framer = LineFramer(maximumLineLength: 64)
        #expect(lines(framer.feed(Array("a\r\nb\r\n".utf8))) == ["a", "b"])
        // Split between \r and \n.
        #expect(framer.feed(Array("c\r".utf8)).isEmpty)
        #expect(lines(framer.feed(Array("\nd\re\n".utf8))) == ["c", "d\re"])
        var keeping = LineFramer(maximumLineLength: 64, stripsCarriageReturn: false)
        #expect(lines(keeping.feed(Array("a\r\n".utf8))) == ["a\r"])
    }

    @Test func resetForgetsAnUnfinishedLine() {
        var framer = LineFramer(maximumLineLength: 64)
        _ = framer.feed(Array("half a li".utf8))
        framer.reset()
        #expect(framer.bufferedByteCount == 0)
        #expect(lines(framer.feed(Array("whole\n".utf8))) == ["whole"])
    }
    @Test("expecting long lines, a line takes its buffer with it and the next long line reserves at once")
    func longLinesHandOverTheirBufferAndReserveAtOnce() {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 40_000)
        // The long line in pieces of 1,000 bytes, then its terminator; the capacity after each piece.
        func feedLong(_ framer: inout LineFramer) -> (lines: [[UInt8]], capacities: [Int]) {
            var lines: [[UInt8]] = []
            var capacities: [Int] = []
            for start in stride(from: 0, through: long.count, by: 1000) {
                let piece = start < long.count ? long[start..<(start + 1000)] : ArraySlice(Array("\r\n".utf8))
                for case .line(let line) in framer.feed(piece) { lines.append(line) }
                capacities.append(framer.bufferedCapacity)
            }
            return (lines, capacities)
        }
        var taking = LineFramer(maximumLineLength: 64 * 1024, expectsLongLines: true)
        let first = feedLong(&taking)
        #expect(first.lines == [long])
        #expect(taking.bufferedCapacity == 0)
        #expect(Set(first.capacities.dropLast()).count > 2, "the first long line grows in steps")
        // The second reserves at once, past 16 KiB (a quarter of the cap), half as much again as
        // the first was long (up to the cap), and grows no more.
        let second = feedLong(&taking)
        #expect(second.lines == [long])
        let afterThreshold = second.capacities[17..<(second.capacities.count - 1)]
        #expect(afterThreshold.allSatisfy { $0 == afterThreshold.first })
        #expect((afterThreshold.first ?? 0) >= 60_000)
        #expect(taking.bufferedCapacity == 0)

        // Without expecting long lines, the array path is as it always was: steps, then nothing held.
        var plain = LineFramer(maximumLineLength: 64 * 1024)
        _ = feedLong(&plain)
        #expect(Set(feedLong(&plain).capacities.dropLast()).count > 2)
        #expect(plain.bufferedCapacity == 0)
    }
}
