import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorProtocol
import TestSupport
import Testing

/// The agent writes a batch's plain traffic frames one after another into one array
/// (`AgentState.FrameRun`) and keeps and queues them when the run ends, instead of one array per
/// frame. The frames, their sequence numbers, the log, the counts, pending records and every
/// snapshot must be what applying the records one by one gives, for any bytes, times and run
/// lengths, with other changes and records the general path takes in between.
@Suite("A run of traffic frames in one array")
struct FrameRunTests {
    @Test("Frames, sequence numbers and state match applying the records one by one")
    func followsOneByOne() throws {
        var byRun = CompactTrafficTests.freshState()
        var oneByOne = CompactTrafficTests.freshState()
        var run = AgentState.FrameRun()
        var frames: [(frame: [UInt8], seq: Int)] = []
        var expected: [(frame: [UInt8], seq: Int)] = []
        let (request, _) = try CompactTrafficTests.message("p", "request", action: "custom.thing")
        var random = SeededRandom(seed: 3036)
        var runs = 0
        func endRun() {
            if !run.isEmpty { runs += 1 }
            byRun.keep(run)
            run.forEachFrame { frame, seq in frames.append((Array(frame), seq)) }
            run.clear()
        }
        var texts = TrafficEventFrameTests.texts(count: 500)
        // Larger than a run's array, and larger than what forwards whole.
        texts.insert([UInt8](repeating: UInt8(ascii: "z"), count: AgentState.FrameRun.bytesPerArray + 5), at: 40)
        texts.insert([UInt8](repeating: UInt8(ascii: "q"), count: AgentState.forwardLimit + 1), at: 90)
        for (index, text) in texts.enumerated() {
            let direction: TrafficRecord.Direction = random.next() % 2 == 0 ? .received : .sent
            let time = TrafficEventFrameTests.times[Int(random.next() % UInt64(TrafficEventFrameTests.times.count))]
            text.withUnsafeBytes { json in
                let record = TrafficArena.Record(direction: direction, time: time, json: json)
                if !run.fits(messageBytes: json.count) {
                    endRun()
                    run.startArray(messageBytes: json.count)
                }
                if !byRun.write(record, into: &run) {
                    endRun()
                    let frame = byRun.apply(record)
                    frames.append((frame, byRun.seq))
                }
                let frame = oneByOne.apply(record)
                expected.append((frame, oneByOne.seq))
            }
            // Now and then another change comes between: the run ends first.
            if random.next() % 7 == 0 {
                endRun()
                let change = BridgeChange.pendingAdded(PendingRequest(message: request, since: time))
                let links = AgentInbox.Links(isLastReceived: direction == .received)
                let left = byRun.apply(change, tag: nil, links: links).frame
                let right = oneByOne.apply(change, tag: nil, links: links).frame
                #expect(left == right, "pending after \(index)")
                frames.append((left, byRun.seq))
                expected.append((right, oneByOne.seq))
                let removed = BridgeChange.pendingRemoved(correlationId: "p", action: "custom.thing")
                frames.append((byRun.apply(removed, tag: nil).frame, byRun.seq))
                expected.append((oneByOne.apply(removed, tag: nil).frame, oneByOne.seq))
            }
            if index % 97 == 0 {
                endRun()
                #expect(byRun.snapshotFrame() == oneByOne.snapshotFrame(), "snapshot after \(index)")
            }
        }
        endRun()
        #expect(runs > 20)
        #expect(frames.count == expected.count)
        for (index, (left, right)) in zip(frames, expected).enumerated() where left.frame != right.frame || left.seq != right.seq {
            Issue.record("frame \(index) differs: seq \(left.seq) vs \(right.seq): \(String(decoding: left.frame.prefix(200), as: UTF8.self)) vs \(String(decoding: right.frame.prefix(200), as: UTF8.self))")
        }
        #expect(byRun.seq == oneByOne.seq)
        #expect(byRun.heldBytes == oneByOne.heldBytes)
        #expect(byRun.snapshotFrame() == oneByOne.snapshotFrame())
    }

    @Test("A run's array is never grown while parts of it are kept: a frame that does not fit starts a new one")
    func arrayIsNotGrown() {
        var state = CompactTrafficTests.freshState()
        var run = AgentState.FrameRun()
        let text = [UInt8](repeating: UInt8(ascii: "m"), count: 1_000)
        var kept: [ArraySlice<UInt8>] = []
        var arrays = 0
        for _ in 0..<200 {
            text.withUnsafeBytes { json in
                if !run.fits(messageBytes: json.count) {
                    state.keep(run)
                    run.forEachFrame { frame, _ in kept.append(frame) }
                    run.clear()
                    run.startArray(messageBytes: json.count)
                    arrays += 1
                }
                #expect(state.write(TrafficArena.Record(direction: .sent, time: CompactTrafficTests.t0, json: json), into: &run))
            }
        }
        state.keep(run)
        run.forEachFrame { frame, _ in kept.append(frame) }
        run.clear()
        #expect(kept.count == 200)
        // About 31 frames of some 1,100 bytes fill a 32 KiB array.
        #expect(arrays >= 200 * 1_000 / AgentState.FrameRun.bytesPerArray && arrays < 20)
        #expect(kept.allSatisfy { $0.last == 0x0A && $0.first == UInt8(ascii: "{") })
    }

    @Test("A run that ends with most of its array unused moves to an array of its own size; a fuller one stays")
    func mostlyUnusedRunIsTrimmed() {
        var state = CompactTrafficTests.freshState()
        let text = [UInt8](repeating: UInt8(ascii: "m"), count: 500)
        func run(frames: Int) -> AgentState.FrameRun {
            var run = AgentState.FrameRun()
            run.startArray(messageBytes: text.count)
            for _ in 0..<frames {
                text.withUnsafeBytes { json in
                    _ = state.write(TrafficArena.Record(direction: .received, time: CompactTrafficTests.t0, json: json), into: &run)
                }
            }
            return run
        }
        // One frame of a quiet host's batch: a 32 KiB array for some 650 bytes.
        var quiet = run(frames: 1)
        let before = quiet.bytes
        #expect(quiet.bytes.capacity >= AgentState.FrameRun.bytesPerArray)
        quiet.trimIfMostlyUnused()
        #expect(quiet.bytes == before)
        #expect(quiet.bytes.capacity < 2 * quiet.bytes.count)
        var frames: [ArraySlice<UInt8>] = []
        quiet.forEachFrame { frame, _ in frames.append(frame) }
        #expect(frames.count == 1 && frames[0].last == 0x0A && frames[0].first == UInt8(ascii: "{"))
        // A run that fills most of its array keeps it.
        var busy = run(frames: 40)
        let capacity = busy.bytes.capacity
        #expect(busy.bytes.count * 2 >= capacity)
        busy.trimIfMostlyUnused()
        #expect(busy.bytes.capacity == capacity)
    }

    @Test("A run's array is sized for the rest of its run of records: a few messages get an array of their size")
    func arrayIsSizedForTheRun() {
        var state = CompactTrafficTests.freshState()
        for (count, size) in [(1, 300), (3, 300), (10, 2_000), (200, 1_000)] {
            var arena = TrafficArena()
            let text = [UInt8](repeating: UInt8(ascii: "m"), count: size)
            for _ in 0..<count {
                text.withUnsafeBytes { arena.append(.received, time: CompactTrafficTests.t0, json: $0) }
            }
            var run = AgentState.FrameRun()
            var arrays: [Int] = []
            var frames = 0
            arena.forEach { record in
                if !run.fits(messageBytes: record.json.count) {
                    if !run.isEmpty { arrays.append(run.bytes.capacity) }
                    state.keep(run)
                    run.clear()
                    run.startArray(messageBytes: record.json.count, runLeft: record.runLeft)
                }
                #expect(state.write(record, into: &run))
                frames += 1
            }
            let written = run.bytes.count
            arrays.append(run.bytes.capacity)
            #expect(frames == count)
            if count * (size + 400) < AgentState.FrameRun.bytesPerArray {
                // One array for the whole run, at most twice what its frames take.
                #expect(arrays.count == 1, "\(count) × \(size)")
                #expect(arrays[0] < 2 * written, "\(count) × \(size): \(arrays[0]) for \(written)")
            } else {
                #expect(arrays.dropLast().allSatisfy { $0 >= AgentState.FrameRun.bytesPerArray }, "\(count) × \(size)")
            }
            state.keep(run)
        }
    }
}
