import BridgeCore
import Foundation
import InspectorProtocol

/// The event frame of a plain traffic record (no command, hold, fault, note or edit on it, small
/// enough to forward whole), written in one pass with room made for it beforehand (an upper
/// bound: each number is given room for its longest form): appended after the last frame of a
/// run in one array (``append(seq:direction:time:json:numbers:to:)``, `AgentState.FrameRun`), or,
/// for a message that came in an array of its own, around the message where it lies
/// (``inPlace(_:seq:direction:time:)``).
///
/// This is the agent's hot path: every message that crosses the bridge becomes one of these. It
/// writes exactly what ``AgentState``'s general path writes for such a record through
/// `JSONWriter` (`{"kind":"event","seq":…,"event":{"type":"traffic","record":{…}}}` and a
/// newline), without the writer's per-key escaping, its nesting stack or any intermediate value:
/// the constant parts are static text, the numbers are written as digits, and the message's bytes
/// are copied as they are (raw line breaks, which valid JSON has only as whitespace, become
/// spaces, as `JSONWriter.rawJSON` makes them). The log keeps the record as a slice of the frame
/// (``record``), and a received request that goes pending reuses its message (``message``).
struct TrafficEventFrame {
    /// The whole frame, ending in a newline.
    let bytes: [UInt8]
    /// Where the record (the object after `"record":`) is in ``bytes``.
    let record: Range<Int>
    /// Where the message's text is in ``bytes``.
    let message: Range<Int>

    /// The frame numbered `seq` of a record of `json` crossing the bridge `direction` at `time`
    /// (milliseconds since 1970, as `AgentState.ms(_:)` gives it), made by no command: its
    /// origin is the journey's for a received message and the host's for a sent one.
    init(seq: Int, direction: TrafficRecord.Direction, time: Double, json: UnsafeRawBufferPointer) {
        var numbers = Numbers()
        self.init(seq: seq, direction: direction, time: time, json: json, numbers: &numbers)
    }

    /// The text of the sequence number and the time of the last frame written, which the next
    /// frame's mostly repeat or pass by a little (``DecimalDigits``): one per writer of frames.
    struct Numbers {
        var seq = DecimalDigits()
        var time = DecimalDigits()
    }

    /// The frame as ``init(seq:direction:time:json:)`` writes it, its sequence number and time
    /// written from the text of the last frame's (`numbers`, kept by the caller from frame to
    /// frame).
    init(seq: Int, direction: TrafficRecord.Direction, time: Double, json: UnsafeRawBufferPointer, numbers: inout Numbers) {
        var bytes: [UInt8] = []
        let written = Self.append(seq: seq, direction: direction, time: time, json: json, numbers: &numbers, to: &bytes)
        self.bytes = bytes
        self.record = written.record
        self.message = written.message
    }

    /// Where a frame appended to an array is in it (``append(seq:direction:time:json:numbers:to:)``).
    struct Appended {
        /// The whole frame, ending in a newline.
        var frame: Range<Int>
        /// The record (the object after `"record":`).
        var record: Range<Int>
        /// The message's text.
        var message: Range<Int>
    }

    /// The most bytes the frame of a message of `messageBytes` takes (its numbers at their
    /// longest, its time a whole number of milliseconds): room to make before appending one.
    static func capacity(messageBytes: Int) -> Int {
        head.utf8CodeUnitCount + eventHead.utf8CodeUnitCount + recordHead.utf8CodeUnitCount + receivedMiddle.utf8CodeUnitCount
            + receivedOrigin.utf8CodeUnitCount + messageHead.utf8CodeUnitCount + tail.utf8CodeUnitCount + 4 * DecimalText.maxBytes
            + messageBytes
    }

    /// Appends the frame ``init(seq:direction:time:json:numbers:)`` writes to `bytes` (which may
    /// hold other frames before it: a run of frames in one array, one allocation for all) and
    /// returns where its parts are.
    static func append(
        seq: Int, direction: TrafficRecord.Direction, time: Double, json: UnsafeRawBufferPointer, numbers: inout Numbers,
        to bytes: inout [UInt8]
    ) -> Appended {
        // A time that is not a whole number of milliseconds below 10^15 (never, for a real clock)
        // is written by `JSONWriter` itself, so it reads exactly as the general path writes it.
        // Whole is tested by converting (below 10^15 every whole double is an exact `Int64`),
        // not by `rounded()`, which is a call into libm.
        let wholeTime: Int64? = time.isFinite && abs(time) < 1e15 && Double(Int64(time)) == time ? Int64(time) : nil
        var otherTime: [UInt8] = []
        if wholeTime == nil {
            var writer = JSONWriter(capacity: 32)
            writer.number(time)
            otherTime = writer.bytes
        }
        let received = direction == .received
        let middle: StaticString = received ? Self.receivedMiddle : Self.sentMiddle
        let origin: StaticString = received ? Self.receivedOrigin : Self.sentOrigin
        // Every part written below, the numbers at their longest (a received frame's constant
        // parts, the longer, for either direction).
        let capacity = Self.capacity(messageBytes: json.count) + otherTime.count
        var record = 0..<0
        var message = 0..<0
        let start = bytes.count
        // Grown as an append, not made by `Array(unsafeUninitializedCapacity:)`: that one
        // allocates through the standard library's unspecialized path, which looks the array's
        // type up at run time (some 500 instructions a frame).
        bytes.append(addingCapacity: capacity) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                var at = 0
                func put(_ text: StaticString) {
                    (base + at).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
                    at += text.utf8CodeUnitCount
                }
                func putDecimal(_ value: Int64) {
                    at += DecimalText.write(value, to: base + at)
                }
                put(Self.head)
                let seqStart = at
                at += numbers.seq.write(Int64(seq), to: base + at)
                let seqCount = at - seqStart
                // The event's head and the record's, one text (one copy).
                put(Self.eventAndRecordHead)
                let recordStart = at - Self.recordHead.utf8CodeUnitCount
                // The record's seq is the frame's: its digits are copied, not written again.
                (base + at).update(from: base + seqStart, count: seqCount)
                at += seqCount
                put(middle)
                if let wholeTime {
                    at += numbers.time.write(wholeTime, to: base + at)
                } else {
                    otherTime.withUnsafeBufferPointer { text in
                        if let source = text.baseAddress { (base + at).update(from: source, count: text.count) }
                    }
                    at += otherTime.count
                }
                put(origin)
                putDecimal(Int64(json.count))
                put(Self.messageHead)
                let messageStart = at
                if let source = json.baseAddress {
                    UnsafeMutableRawPointer(base + at).copyMemory(from: source, byteCount: json.count)
                    if memchr(source, 0x0A, json.count) != nil || memchr(source, 0x0D, json.count) != nil {
                        for index in at..<(at + json.count) where base[index] == 0x0A || base[index] == 0x0D { base[index] = 0x20 }
                    }
                }
                at += json.count
                message = messageStart..<at
                put(Self.tail)
                // The record ends with its own closing brace, the first of the tail's three.
                record = recordStart..<(messageStart + json.count + 1)
                initialized = at
            }
        }
        return Appended(
            frame: start..<bytes.count, record: (start + record.lowerBound)..<(start + record.upperBound),
            message: (start + message.lowerBound)..<(start + message.upperBound))
    }

    /// Where the parts of a frame written into a message's own array are
    /// (``inPlace(_:seq:direction:time:)``), as indices of that array.
    struct InPlace {
        /// The whole frame, ending in a newline: its array's suffix from the head's start.
        let frame: Range<Int>
        /// Where the record is.
        let record: Range<Int>
        /// Where the message's text is.
        let message: Range<Int>
    }

    /// Writes the frame numbered `seq` of a record of the message in `buffer`, an array laid out
    /// by `TrafficArena` (``TrafficArena/ownBufferHeadRoom`` bytes, the message,
    /// ``TrafficArena/ownBufferTailRoom`` bytes), into that array: the head just before the
    /// message, the tail after it, the message's raw line breaks made spaces. The frame is then
    /// the array's suffix from the head's start, byte for byte what ``init(seq:direction:time:json:)``
    /// writes for the same message; nothing is copied but the head and the tail. Returns nil,
    /// having changed nothing, when the head does not fit in the room left for it (a time that is
    /// not a whole number of milliseconds, written at length) or the array is not laid out so.
    static func inPlace(_ buffer: inout [UInt8], seq: Int, direction: TrafficRecord.Direction, time: Double) -> InPlace? {
        let headRoom = TrafficArena.ownBufferHeadRoom
        let tailRoom = TrafficArena.ownBufferTailRoom
        guard buffer.count >= headRoom + tailRoom else { return nil }
        let messageCount = buffer.count - headRoom - tailRoom
        var head = [UInt8]()
        head.reserveCapacity(headRoom + 2 * DecimalText.maxBytes)
        let recordOffset = writeHead(seq: seq, direction: direction, time: time, messageBytes: messageCount, into: &head)
        guard head.count <= headRoom else { return nil }
        let headStart = headRoom - head.count
        return buffer.withUnsafeMutableBufferPointer { array -> InPlace? in
            guard let base = array.baseAddress else { return nil }
            head.withUnsafeBufferPointer { text in
                if let source = text.baseAddress { (base + headStart).update(from: source, count: text.count) }
            }
            let message = base + headRoom
            if memchr(message, 0x0A, messageCount) != nil || memchr(message, 0x0D, messageCount) != nil {
                for index in 0..<messageCount where message[index] == 0x0A || message[index] == 0x0D { message[index] = 0x20 }
            }
            (base + headRoom + messageCount).update(from: tail.utf8Start, count: tail.utf8CodeUnitCount)
            return InPlace(
                frame: headStart..<array.count,
                record: (headStart + recordOffset)..<(headRoom + messageCount + 1),
                message: headRoom..<(headRoom + messageCount))
        }
    }

    /// Appends the head of a frame (everything before the message's text) to `head`, as
    /// ``init(seq:direction:time:json:)`` writes it, and returns where the record starts in it.
    private static func writeHead(
        seq: Int, direction: TrafficRecord.Direction, time: Double, messageBytes: Int, into head: inout [UInt8]
    ) -> Int {
        func put(_ text: StaticString) {
            head.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        func putDecimal(_ value: Int64) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalText.maxBytes) { digits in
                guard let start = digits.baseAddress else { return }
                let count = DecimalText.write(value, to: start)
                head.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
            }
        }
        let received = direction == .received
        put(Self.head)
        putDecimal(Int64(seq))
        put(Self.eventHead)
        let recordStart = head.count
        put(Self.recordHead)
        putDecimal(Int64(seq))
        put(received ? Self.receivedMiddle : Self.sentMiddle)
        if time.isFinite && abs(time) < 1e15 && Double(Int64(time)) == time {
            putDecimal(Int64(time))
        } else {
            var writer = JSONWriter(capacity: 32)
            writer.number(time)
            head.append(contentsOf: writer.bytes)
        }
        put(received ? Self.receivedOrigin : Self.sentOrigin)
        putDecimal(Int64(messageBytes))
        put(Self.messageHead)
        return recordStart
    }

    private static var head: StaticString { #"{"kind":"event","seq":"# }
    private static var eventHead: StaticString { #","event":{"type":"traffic","record":"# }
    private static var recordHead: StaticString { #"{"seq":"# }
    /// ``eventHead`` and ``recordHead`` together.
    private static var eventAndRecordHead: StaticString { #","event":{"type":"traffic","record":{"seq":"# }
    private static var receivedMiddle: StaticString { #","direction":"received","time":"# }
    private static var sentMiddle: StaticString { #","direction":"sent","time":"# }
    private static var receivedOrigin: StaticString { #","origin":"journey","bytes":"# }
    private static var sentOrigin: StaticString { #","origin":"host","bytes":"# }
    private static var messageHead: StaticString { #","message":"# }
    private static var tail: StaticString { "}}}\n" }
}
