import Foundation
@testable import InspectorAgent
import SocketSupport
import TestSupport
import Testing

/// A client's queue is written by gathering writes (its frames handed to one system call where
/// they lie) instead of copying them into one buffer first. Whatever the output takes on each
/// call (a part of a frame, nothing at all, a run of frames) and however the frames are held (whole
/// arrays or parts of larger ones), the bytes that reach the client must be the frames, whole and
/// in order, as the copying writer gave them; a client gone mid-frame is noticed.
@Suite("A client's queue written by gathering writes")
struct ClientOutboxWritingTests {
    /// An output that takes what its script says on each call: a number of bytes, nothing
    /// (`.wouldBlock`), or an error (the peer went).
    final class ScriptedOutput: AgentOutput {
        enum Step {
            case take(Int)
            case full
            case gone
        }

        var script: [Step]
        var received: [UInt8] = []
        var calls = 0
        var buffersPerCall: [Int] = []
        let gathers: Bool

        init(script: [Step], gathers: Bool) {
            self.script = script
            self.gathers = gathers
        }

        struct Gone: Error {}

        private func next() -> Step {
            calls += 1
            return script.isEmpty ? .take(Int.max) : script.removeFirst()
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws -> UnixConnection.WriteResult {
            try write(gatheringAll: [bytes])
        }

        func write(gathering buffers: UnsafeBufferPointer<UnsafeRawBufferPointer>) throws -> UnixConnection.WriteResult {
            // Without gathering, as an output that has only plain writes: the first non-empty buffer.
            guard gathers else {
                guard let first = buffers.first(where: { $0.count > 0 }) else { return .written(0) }
                return try write(first)
            }
            return try write(gatheringAll: Array(buffers))
        }

        private func write(gatheringAll buffers: [UnsafeRawBufferPointer]) throws -> UnixConnection.WriteResult {
            buffersPerCall.append(buffers.count)
            switch next() {
            case .full:
                return .wouldBlock
            case .gone:
                throw Gone()
            case .take(let most):
                var left = most
                var taken = 0
                for buffer in buffers where left > 0 {
                    let part = min(left, buffer.count)
                    received += buffer.prefix(part)
                    left -= part
                    taken += part
                }
                return .written(taken)
            }
        }
    }

    /// Frames of varied sizes (a byte, hundreds, past the gathering size), some whole arrays and
    /// some parts of larger ones (as a frame written in its message's own array is).
    static func frames(_ random: inout SeededRandom, count: Int) -> [ArraySlice<UInt8>] {
        let sizes = [1, 2, 57, 300, 301, 1_000, 4_095, 20_000, ClientOutbox.gatherBytes - 1, ClientOutbox.gatherBytes, ClientOutbox.gatherBytes + 1, 200_000]
        return (0..<count).map { index in
            let size = sizes[Int(random.next() % UInt64(sizes.count))]
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if index % 3 == 0 {
                let around = [UInt8](repeating: 0xEE, count: 37) + bytes + [UInt8](repeating: 0xDD, count: 11)
                return around[37..<(37 + size)]
            }
            return bytes[...]
        }
    }

    static func script(_ random: inout SeededRandom, count: Int, goneAt: Int? = nil) -> [ScriptedOutput.Step] {
        (0..<count).map { index in
            if index == goneAt { return .gone }
            switch random.next() % 8 {
            case 0: return .full
            case 1: return .take(1)
            case 2: return .take(Int(random.next() % 100))
            case 3: return .take(Int(random.next() % 70_000))
            default: return .take(Int.max)
            }
        }
    }

    /// Queues `frames` (events and control frames mixed, queued a few at a time between
    /// flushes) and flushes until all is written; returns whether the client stayed.
    static func run(_ frames: [ArraySlice<UInt8>], output: ScriptedOutput, random: inout SeededRandom) -> Bool {
        var outbox = ClientOutbox(now: Date())
        let now = Date()
        var queuedTotal = 0
        var index = 0
        var rounds = 0
        while index < frames.count || outbox.wantsToWrite {
            rounds += 1
            if rounds > 100_000 { Issue.record("never drained"); return false }
            let burst = Int(random.next() % 6)
            for _ in 0..<burst where index < frames.count {
                let frame = frames[index]
                if random.next() % 4 == 0 {
                    outbox.enqueue(frame, now: now)
                } else if !outbox.enqueueEventWithoutWriting(frame, seq: index, limit: Int.max / 2, now: now) {
                    Issue.record("an event that fits was refused")
                }
                queuedTotal += frame.count
                index += 1
            }
            guard outbox.flush(to: output, now: now) else { return false }
            #expect(outbox.queuedBytes == queuedTotal - output.received.count)
        }
        return true
    }

    @Test("What reaches the client is the frames, whole and in order, whatever each write takes")
    func sameBytesWhateverIsTaken() {
        var random = SeededRandom(seed: 3031)
        for round in 0..<40 {
            let frames = Self.frames(&random, count: 60)
            let whole = frames.flatMap { $0 }
            for gathers in [true, false] {
                let output = ScriptedOutput(script: Self.script(&random, count: 400), gathers: gathers)
                #expect(Self.run(frames, output: output, random: &random), "round \(round): the client was dropped")
                #expect(output.received == whole, "round \(round), gathering \(gathers): \(output.received.count) bytes of \(whole.count)")
            }
        }
    }

    @Test("A batch of small frames is one write, handed over as its frames")
    func batchIsOneWrite() {
        var outbox = ClientOutbox(now: Date())
        let frames = (0..<64).map { Array("{\"kind\":\"event\",\"seq\":\($0)}\n".utf8)[...] }
        for (seq, frame) in frames.enumerated() {
            let queued = outbox.enqueueEventWithoutWriting(frame, seq: seq, limit: 1 << 20, now: Date())
            #expect(queued)
        }
        let output = ScriptedOutput(script: [], gathers: true)
        let stayed = outbox.flush(to: output, now: Date())
        #expect(stayed)
        #expect(output.calls == 1)
        #expect(output.buffersPerCall == [64])
        #expect(output.received == frames.flatMap { $0 })
        #expect(!outbox.wantsToWrite)
    }

    @Test("A client gone in the middle of a frame is dropped, having been sent a prefix of the frames")
    func goneMidFrame() {
        for goneAt in [0, 1, 2, 5, 9] {
            var outbox = ClientOutbox(now: Date())
            let frames: [ArraySlice<UInt8>] = (0..<30).map { index in
                let bytes = (0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
                return index % 2 == 0 ? bytes[...] : (bytes + [0xEE])[..<2_000]
            }
            for frame in frames { outbox.enqueue(frame, now: Date()) }
            let script: [ScriptedOutput.Step] = [.take(3), .full, .take(150)] + Array(repeating: .take(1_000), count: goneAt) + [.gone]
            let output = ScriptedOutput(script: script, gathers: true)
            var stayed = true
            for _ in 0..<50 where stayed && outbox.wantsToWrite { stayed = outbox.flush(to: output, now: Date()) }
            #expect(!stayed, "the client stayed after it went (\(goneAt))")
            #expect(output.received.count == 153 + 1_000 * goneAt)
            #expect(frames.flatMap { $0 }.starts(with: output.received))
        }
    }

    @Test("A client that takes nothing is offered the head alone until it takes something again")
    func fullOutputIsOfferedTheHeadAlone() {
        var outbox = ClientOutbox(now: Date())
        let frames = (0..<5).map { Array(repeating: UInt8($0), count: 100)[...] }
        for frame in frames { outbox.enqueue(frame, now: Date()) }
        let output = ScriptedOutput(script: [.take(10), .full, .full, .take(Int.max)], gathers: true)
        var stayed = true
        for _ in 0..<3 { stayed = outbox.flush(to: output, now: Date()) && stayed }
        #expect(stayed)
        #expect(output.buffersPerCall == [5, 5, 1, 1, 4])
        #expect(output.received == frames.flatMap { $0 })
    }

    @Test("An empty frame is not queued, so a flush never waits on one: the frames around it go out")
    func emptyFrameIsNotQueued() {
        var outbox = ClientOutbox(now: Date())
        let frames: [ArraySlice<UInt8>] = [Array("a\n".utf8)[...], [][...], Array("b\n".utf8)[...]]
        outbox.enqueue(frames[1], now: Date())
        #expect(!outbox.wantsToWrite)
        for frame in frames { outbox.enqueue(frame, now: Date()) }
        #expect(outbox.queuedBytes == 4)
        for gathers in [true, false] {
            var queued = outbox
            let output = ScriptedOutput(script: [], gathers: gathers)
            var flushes = 0
            while queued.wantsToWrite, flushes < 10 {
                let stayed = queued.flush(to: output, now: Date())
                #expect(stayed)
                flushes += 1
            }
            #expect(!queued.wantsToWrite)
            #expect(output.received == Array("a\nb\n".utf8))
        }
    }
}
