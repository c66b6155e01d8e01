import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorProtocol
import TestSupport
import Testing

/// A message of at least `TrafficArena.ownBufferMessageBytes` comes to the agent in an array of
/// its own, and its event frame is written into that array (`TrafficEventFrame.inPlace`) instead
/// of a fresh frame buffer. The frame, the ranges the log keeps, the state and every later
/// snapshot must be what the copying path (`TrafficEventFrame.init`, `AgentState.apply`) gives,
/// byte for byte, for any bytes, time and sequence number.
@Suite("A large message's frame written in its own array")
struct OwnBufferFrameTests {
    /// `text` laid out as the arena lays out a message in an array of its own.
    static func ownBuffer(_ text: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0, count: TrafficArena.ownBufferHeadRoom) + text + [UInt8](repeating: 0, count: TrafficArena.ownBufferTailRoom)
    }

    @Test("The frame in place is the copied frame, with the record and the message where the copy has them")
    func sameFrameInPlace() {
        var random = SeededRandom(seed: 3033)
        let seqs = [1, 9, 10, 99_999, Int(Int32.max), Int.max]
        var written = 0
        for (index, text) in TrafficEventFrameTests.texts(count: 200).enumerated() {
            let direction: TrafficRecord.Direction = index % 2 == 0 ? .received : .sent
            let time = AgentState.ms(TrafficEventFrameTests.times[Int(random.next() % UInt64(TrafficEventFrameTests.times.count))])
            let seq = seqs[Int(random.next() % UInt64(seqs.count))]
            let copied = text.withUnsafeBytes { TrafficEventFrame(seq: seq, direction: direction, time: time, json: $0) }
            var buffer = Self.ownBuffer(text)
            guard let frame = TrafficEventFrame.inPlace(&buffer, seq: seq, direction: direction, time: time) else {
                // Only a head too long for its room is refused, and then nothing was changed.
                #expect(copied.message.lowerBound > TrafficArena.ownBufferHeadRoom, "refused a head that fits (\(index))")
                #expect(buffer == Self.ownBuffer(text))
                continue
            }
            written += 1
            #expect(Array(buffer[frame.frame]) == copied.bytes, "message \(index), seq \(seq), time \(time)")
            #expect(Array(buffer[frame.record]) == Array(copied.bytes[copied.record]))
            #expect(Array(buffer[frame.message]) == Array(copied.bytes[copied.message]))
            #expect(frame.frame.upperBound == buffer.count)
        }
        #expect(written > 150)
    }

    @Test("An array not laid out for a frame is refused, untouched")
    func tooShortIsRefused() {
        var buffer = [UInt8](repeating: 7, count: TrafficArena.ownBufferHeadRoom + TrafficArena.ownBufferTailRoom - 1)
        #expect(TrafficEventFrame.inPlace(&buffer, seq: 1, direction: .sent, time: 0) == nil)
        #expect(buffer == [UInt8](repeating: 7, count: TrafficArena.ownBufferHeadRoom + TrafficArena.ownBufferTailRoom - 1))
    }

    @Test("Frames, log, counts, pending records and snapshots match the copying path's, message after message")
    func sameState() throws {
        var inPlace = CompactTrafficTests.freshState()
        var copying = CompactTrafficTests.freshState()
        let (request, _) = try CompactTrafficTests.message("p", "request", action: "custom.thing")
        var random = SeededRandom(seed: 3034)
        for (index, text) in TrafficEventFrameTests.texts(count: 300).enumerated() {
            let direction: TrafficRecord.Direction = random.next() % 2 == 0 ? .received : .sent
            let time = TrafficEventFrameTests.times[Int(random.next() % UInt64(TrafficEventFrameTests.times.count))]
            var buffer = Self.ownBuffer(text)
            let left = inPlace.apply(TrafficArena.Record(direction: direction, time: time, json: UnsafeRawBufferPointer(start: nil, count: 0), ownBuffer: 0), taking: &buffer)
            let right = text.withUnsafeBytes { copying.apply(TrafficArena.Record(direction: direction, time: time, json: $0)) }
            #expect(Array(left) == right, "message \(index)")
            #expect(buffer.isEmpty, "the array was not taken")
            if random.next() % 5 == 0 {
                let change = BridgeChange.pendingAdded(PendingRequest(message: request, since: time))
                let links = AgentInbox.Links(isLastReceived: direction == .received)
                #expect(inPlace.apply(change, tag: nil, links: links).frame == copying.apply(change, tag: nil, links: links).frame, "pending after \(index)")
                let removed = BridgeChange.pendingRemoved(correlationId: "p", action: "custom.thing")
                _ = inPlace.apply(removed, tag: nil)
                _ = copying.apply(removed, tag: nil)
            }
            if index % 50 == 0 { #expect(inPlace.snapshotFrame() == copying.snapshotFrame()) }
        }
        #expect(inPlace.seq == copying.seq)
        #expect(inPlace.heldBytes == copying.heldBytes)
        #expect(inPlace.snapshotFrame() == copying.snapshotFrame())
    }

    @Test("Through the inbox: large messages come in arrays of their own, among the others, and give the copying path's frames")
    func throughInbox() throws {
        let large = TrafficArena.ownBufferMessageBytes
        // Quotes, line breaks and every other byte in the data; one message exactly at the limit.
        func text(_ count: Int, fill: UInt8) -> [UInt8] {
            let head = Array(#"{"version":"1.0","correlationId":"L","type":"event","timestamp":1,"payload":{"action":"a","data":""#.utf8)
            let tail = Array(#""}}"#.utf8)
            var body = [UInt8](repeating: fill, count: count - head.count - tail.count)
            body[5] = 0x0A
            body[body.count - 3] = 0x0D
            return head + body + tail
        }
        let texts: [(TrafficRecord.Direction, [UInt8])] = [
            (.received, Array(#"{"small":1}"#.utf8)), (.received, text(large, fill: UInt8(ascii: "a"))),
            (.sent, Array(#"{"small":2}"#.utf8)), (.sent, text(large + 1_000, fill: UInt8(ascii: "b"))),
            (.received, text(large - 1, fill: UInt8(ascii: "c"))), (.sent, text(large + 17, fill: UInt8(ascii: "d"))),
        ]
        let inbox = try AgentInbox()
        let (message, _) = try CompactTrafficTests.message("L", "event", action: "a")
        for (index, (direction, bytes)) in texts.enumerated() {
            let time = CompactTrafficTests.t0.addingTimeInterval(Double(index))
            inbox.pushTraffic(direction, message, json: Data(bytes), time: time, marks: TrafficMarks())
        }
        var inPlace = CompactTrafficTests.freshState()
        var frames: [[UInt8]] = []
        var ownBuffers = 0
        inbox.drain { batch in
            var taken = batch.takeOwnBuffers()
            ownBuffers = taken.count
            #expect(taken.allSatisfy { $0.count >= large + TrafficArena.ownBufferHeadRoom })
            batch.forEach { record in
                if record.ownBuffer >= 0 {
                    #expect(record.json.isEmpty)
                    frames.append(Array(inPlace.apply(record, taking: &taken[record.ownBuffer])))
                } else {
                    frames.append(inPlace.apply(record))
                }
            } other: { _ in
                Issue.record("a plain record was not handed over as bytes")
            }
        }
        #expect(ownBuffers == 3)
        var copying = CompactTrafficTests.freshState()
        for (index, (direction, bytes)) in texts.enumerated() {
            let time = CompactTrafficTests.t0.addingTimeInterval(Double(index))
            let expected = bytes.withUnsafeBytes { copying.apply(TrafficArena.Record(direction: direction, time: time, json: $0)) }
            #expect(frames[index] == expected, "message \(index)")
        }
        #expect(inPlace.snapshotFrame() == copying.snapshotFrame())
    }

    @Test("Before the agent takes them, a large message's bytes are read in place, as any record's")
    func readBeforeTaking() {
        var arena = TrafficArena()
        let large = (0..<(TrafficArena.ownBufferMessageBytes + 3)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let small = Array("{}".utf8)
        let time = Date(timeIntervalSinceReferenceDate: 12.5)
        large.withUnsafeBytes { arena.append(.sent, time: time, json: $0) }
        small.withUnsafeBytes { arena.append(.received, time: time, json: $0) }
        large.withUnsafeBytes { arena.append(.received, time: time, json: $0) }
        var seen: [(TrafficRecord.Direction, Int, [UInt8])] = []
        arena.forEach { seen.append(($0.direction, $0.ownBuffer, Array($0.json))) }
        #expect(seen.map(\.0) == [.sent, .received, .received])
        #expect(seen.map(\.1) == [0, -1, 1])
        #expect(seen[0].2 == large && seen[1].2 == small && seen[2].2 == large)
        #expect(arena.capacityBytes < TrafficArena.ownBufferMessageBytes, "a large message went into the shared buffer")
        let taken = arena.takeOwnBuffers()
        #expect(taken.count == 2)
        #expect(taken.allSatisfy { Array($0[TrafficArena.messageRange(inOwnBufferOf: $0.count)]) == large })
        var after: [Int] = []
        arena.forEach { after.append($0.json.count) }
        #expect(after == [0, 2, 0])
        arena.removeAll()
        #expect(arena.takeOwnBuffers().isEmpty)
    }
}
