import BridgeCore
import Foundation
import InspectorProtocol

/// The event frame of a plain traffic record (no command, hold, fault, note or edit on it, small
/// enough to forward whole), written in one pass into one buffer sized for it beforehand (an
/// upper bound: each number is given room for its longest form).
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
        // Every part written below, the numbers at their longest.
        let capacity = Self.head.utf8CodeUnitCount + Self.eventHead.utf8CodeUnitCount + Self.recordHead.utf8CodeUnitCount
            + middle.utf8CodeUnitCount + origin.utf8CodeUnitCount + Self.messageHead.utf8CodeUnitCount + Self.tail.utf8CodeUnitCount
            + 4 * DecimalText.maxBytes + otherTime.count + json.count
        var record = 0..<0
        var message = 0..<0
        // Grown as an append, not made by `Array(unsafeUninitializedCapacity:)`: that one
        // allocates through the standard library's unspecialized path, which looks the array's
        // type up at run time (some 500 instructions a frame).
        var bytes: [UInt8] = []
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
                putDecimal(Int64(seq))
                let seqCount = at - seqStart
                put(Self.eventHead)
                let recordStart = at
                put(Self.recordHead)
                // The record's seq is the frame's: its digits are copied, not written again.
                (base + at).update(from: base + seqStart, count: seqCount)
                at += seqCount
                put(middle)
                if let wholeTime {
                    putDecimal(wholeTime)
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
        self.bytes = bytes
        self.record = record
        self.message = message
    }

    private static var head: StaticString { #"{"kind":"event","seq":"# }
    private static var eventHead: StaticString { #","event":{"type":"traffic","record":"# }
    private static var recordHead: StaticString { #"{"seq":"# }
    private static var receivedMiddle: StaticString { #","direction":"received","time":"# }
    private static var sentMiddle: StaticString { #","direction":"sent","time":"# }
    private static var receivedOrigin: StaticString { #","origin":"journey","bytes":"# }
    private static var sentOrigin: StaticString { #","origin":"host","bytes":"# }
    private static var messageHead: StaticString { #","message":"# }
    private static var tail: StaticString { "}}}\n" }
}
