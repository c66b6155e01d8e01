import BridgeCore
import Foundation

/// Reads a `traffic` event frame, `{"kind":"event","seq":N,"event":{"type":"traffic","record":{...}}}`,
/// straight from its bytes in one pass: the record's fields are filled as they are met (in any
/// order), its message is read by `BridgeMessageReader` and kept verbatim
/// (``WireTraffic/messageJSON``), and no dictionary is built: the message's `payload.data` is
/// checked and kept as text until something reads it, and only the rare `delivered` and
/// `original` messages have theirs built. Nearly every frame of a busy stream is one of these
/// (issue 30).
///
/// It takes exactly the frames ``AgentFrame/read(_:)``'s full decoding reads as a traffic event,
/// and reads them to equal values, under the same JSON rule (``WireProtocol/maxAgentFrameDepth``
/// levels, duplicate keys, numbers, escapes, UTF-8); anything else it refuses without saying why,
/// and the frame is then decoded the full way, which accepts it or says what is wrong.
///
/// ```swift
/// if let frame = TrafficFrameReader.frame(in: line) { ... }   // nil: decode the full way
/// ```
enum TrafficFrameReader {
    /// The traffic event `line` holds, or `nil` when it is not one this reader takes.
    static func frame(in line: UnsafeRawBufferPointer) -> AgentFrame? {
        frame(in: line, followingWriterOrder: true)
    }

    /// The same, reading every record and key the general way when `followingWriterOrder` is
    /// `false` (no plain record's layout, no key expected in its writer's order: see
    /// `JSONKeySet`): for tests that compare the two ways.
    static func frame(in line: UnsafeRawBufferPointer, followingWriterOrder: Bool) -> AgentFrame? {
        if let frame = frameAsTheAgentWritesIt(in: line, followingWriterOrder: followingWriterOrder) { return frame }
        return frameReadingEveryKey(in: line, followingWriterOrder: followingWriterOrder)
    }

    /// The agent writes every traffic event with the same start and end around its record
    /// (`AgentState`): `{"kind":"event","seq":N,"event":{"type":"traffic","record":` and `}}`.
    private static let agentEventStart = Array(#"{"kind":"event","seq":"#.utf8)
    private static let agentRecordStart = Array(#","event":{"type":"traffic","record":"#.utf8)
    private static let agentFrameEnd = Array("}}".utf8)

    /// The traffic event `line` holds when it is laid out exactly as the agent writes one (its
    /// envelope compared as bytes, not read key by key: a third of reading a frame was its two
    /// outer levels, issue 30); `nil` otherwise, and it is then read key by key. Where the bytes
    /// are those, reading them key by key gives the same: the keys are known, each once, the
    /// values the ones the full reading requires.
    private static func frameAsTheAgentWritesIt(in line: UnsafeRawBufferPointer, followingWriterOrder: Bool) -> AgentFrame? {
        whole(line, followingWriterOrder: followingWriterOrder) { parser throws(JSONParser.Refusal) -> AgentFrame in
            try parser.readLiteral(agentEventStart, openingObjectAt: 1)
            let seq = try integer(&parser)
            try parser.readLiteral(agentRecordStart, openingObjectAt: 2)
            let recordStart = parser.offset
            var plain: WireTraffic?
            if followingWriterOrder {
                do throws(JSONParser.Refusal) {
                    plain = try plainTraffic(from: &parser)
                } catch {
                    // A record with rare fields, or other than the agent writes it: read key by key.
                    parser.rewind(to: recordStart)
                }
            }
            let record: WireTraffic
            if let plain = plain.take() { record = plain } else { record = try traffic(from: &parser) }
            try parser.readLiteral(agentFrameEnd)
            return .event(seq: seq, event: .traffic(record))
        }
    }

    /// The traffic event `line` holds, read key by key (in any order, with any spacing), or
    /// `nil` when it is not one this reader takes.
    private static func frameReadingEveryKey(in line: UnsafeRawBufferPointer, followingWriterOrder: Bool) -> AgentFrame? {
        whole(line, followingWriterOrder: followingWriterOrder) { parser throws(JSONParser.Refusal) -> AgentFrame in
            var kindIsEvent = false
            var seq: Int?
            var record: WireTraffic?
            try parser.readObject(depth: 1, keys: frameKeys) { parser, key throws(JSONParser.Refusal) in
                switch key {
                case 0:
                    // Any other kind is decoded the full way.
                    guard try parser.readString(among: eventKind) == 0 else { throw JSONParser.Refusal() }
                    kindIsEvent = true
                case 1: seq = try integer(&parser)
                default: record = try trafficEvent(from: &parser)
                }
            }
            guard kindIsEvent, let seq, let record = record.take() else { throw JSONParser.Refusal() }
            return .event(seq: seq, event: .traffic(record))
        }
    }

    /// Runs `body` on a parser at the first value of `line` (nested at most
    /// ``WireProtocol/maxAgentFrameDepth`` deep) and then requires the end of the text; `nil`
    /// when anything refuses. As `JSONParser.reading` does, but not generic: called from here,
    /// that one was not specialised, and looked up `Optional<AgentFrame>`'s metadata on every
    /// frame (issue 30).
    private static func whole(
        _ line: UnsafeRawBufferPointer, followingWriterOrder: Bool, _ body: (inout JSONParser) throws(JSONParser.Refusal) -> AgentFrame
    ) -> AgentFrame? {
        var parser = JSONParser(lending: line, maxDepth: WireProtocol.maxAgentFrameDepth, followingWriterOrder: followingWriterOrder)
        do throws(JSONParser.Refusal) {
            let frame = try body(&parser)
            return parser.isAtEnd() ? frame : nil
        } catch {
            return nil
        }
    }

    private static let frameKeys = JSONKeySet(["kind", "seq", "event"], writerOrders: [["kind", "seq", "event"]])
    private static let eventKeys = JSONKeySet(["type", "record"], writerOrders: [["type", "record"]])
    private static let eventKind = JSONKeySet(["event"])
    private static let trafficType = JSONKeySet(["traffic"])
    private static let directions: [TrafficRecord.Direction] = [.received, .sent]
    private static let directionNames = JSONKeySet(strings: directions.map(\.rawValue))
    private static let origins: [MessageOrigin] = [.journey, .host, .inspector]
    private static let originNames = JSONKeySet(strings: origins.map(\.rawValue))
    private static let recordKeys = JSONKeySet([
        "seq", "direction", "time", "origin", "command", "rule", "deliveryError", "hold", "fault", "bytes", "truncated", "reported", "lost",
        "delivered", "original", "message",
    ], writerOrders: [
        // As `AgentState` writes a record (a plain one, nearly all, is seq to origin, bytes, message).
        [
            "seq", "direction", "time", "origin", "command", "rule", "deliveryError", "lost", "hold", "fault", "original", "bytes", "reported",
            "truncated", "message", "delivered",
        ],
        // Sorted, as `JSONEncoding` writes a `WireTraffic` (recordings, a snapshot's log, the benchmarks' frames).
        [
            "bytes", "command", "delivered", "deliveryError", "direction", "fault", "hold", "lost", "message", "origin", "original", "reported",
            "rule", "seq", "time", "truncated",
        ],
    ])

    /// `{"type":"traffic","record":{...}}` at level 2: the record.
    private static func trafficEvent(from parser: inout JSONParser) throws(JSONParser.Refusal) -> WireTraffic {
        var isTraffic = false
        var record: WireTraffic?
        try parser.readObject(depth: 2, keys: eventKeys) { parser, key throws(JSONParser.Refusal) in
            if key == 0 {
                guard try parser.readString(among: trafficType) == 0 else { throw JSONParser.Refusal() }
                isTraffic = true
            } else {
                record = try traffic(from: &parser)
            }
        }
        guard isTraffic, let record = record.take() else { throw JSONParser.Refusal() }
        return record
    }

    /// A traffic record at level 3 of the parser's text, as ``WireTraffic/init(validating:)``
    /// reads it from a value, with its message's bytes (a copy of their own, which its deferred
    /// `payload.data` shares).
    static func traffic(from parser: inout JSONParser) throws(JSONParser.Refusal) -> WireTraffic {
        let depth = 3
        var seq: Int?
        var direction: TrafficRecord.Direction?
        var time: Double?
        var origin: MessageOrigin?
        var bytes: Int?
        // The fields few records have, made at the first of them: ten optionals (two of them
        // messages) set, moved and freed on every frame cost some 700 instructions (issue 30).
        var rare: WireTraffic.Rare?
        var message: BridgeMessage?
        var messageBytes: Data?
        try parser.readObject(depth: depth, keys: recordKeys) { parser, key throws(JSONParser.Refusal) in
            switch key {
            case 0: seq = try integer(&parser)
            case 1:
                guard let known = try parser.readString(among: directionNames) else { throw JSONParser.Refusal() }
                direction = directions[known]
            case 2: time = try parser.readNumber()
            case 3:
                guard let known = try parser.readString(among: originNames) else { throw JSONParser.Refusal() }
                origin = origins[known]
            case 4:
                let command = try optionalString(&parser)
                setRare(&rare) { $0.command = command }
            case 5:
                let rule = try optionalString(&parser)
                setRare(&rare) { $0.rule = rule }
            case 6:
                let deliveryError = try optionalString(&parser)
                setRare(&rare) { $0.deliveryError = deliveryError }
            case 7:
                // Rare: read as a value and checked as the full way does.
                guard let mark = WireTraffic.optionalHold(try parser.readValue(depth: depth)) else { throw JSONParser.Refusal() }
                setRare(&rare) { $0.hold = mark }
            case 8:
                guard let mark = WireTraffic.optionalFault(try parser.readValue(depth: depth)) else { throw JSONParser.Refusal() }
                setRare(&rare) { $0.fault = mark }
            case 9: bytes = try integer(&parser)
            case 10:
                let truncated = try parser.readNull() ? nil : try parser.readBool()
                setRare(&rare) { $0.truncated = truncated }
            case 11:
                let reported = try optionalString(&parser)
                setRare(&rare) { $0.reported = reported }
            case 12:
                let lost = try optionalString(&parser)
                setRare(&rare) { $0.lost = lost }
            case 13:
                let delivered = try BridgeMessageReader.optionalMessage(from: &parser, depth: depth + 1)
                setRare(&rare) { $0.delivered = delivered }
            case 14:
                let original = try BridgeMessageReader.optionalMessage(from: &parser, depth: depth + 1)
                setRare(&rare) { $0.original = original }
            default:
                // Its `payload.data` is built only if something reads it (a row keeps the
                // bytes), from a slice of the message's bytes: one copy for both.
                let (read, bytes) = try BridgeMessageReader.messageKeepingBytes(from: &parser, depth: depth + 1)
                message = read
                messageBytes = bytes
            }
        }
        // Taken out, not copied: a message is large.
        guard let seq, let direction, let time, let origin, let bytes, let messageBytes, let message = message.take() else {
            throw JSONParser.Refusal()
        }
        return WireTraffic(
            seq: seq, direction: direction, time: time, origin: origin, bytes: bytes, message: message, messageJSON: messageBytes,
            rare: rare.take())
    }

    /// The agent writes a plain record (no rare field: nearly every one) in one layout
    /// (`TrafficEventFrame`): `{"seq":N,"direction":"received","time":T,"origin":"journey","bytes":B,"message":{...}}`,
    /// or `sent` from the `host`.
    private static let plainRecordStart = Array(#"{"seq":"#.utf8)
    private static let plainReceivedMiddle = Array(#","direction":"received","time":"#.utf8)
    private static let plainSentMiddle = Array(#","direction":"sent","time":"#.utf8)
    private static let plainReceivedOrigin = Array(#","origin":"journey","bytes":"#.utf8)
    private static let plainSentOrigin = Array(#","origin":"host","bytes":"#.utf8)
    private static let plainMessageKey = Array(#","message":"#.utf8)
    private static let plainRecordEnd = Array("}".utf8)

    /// A traffic record at level 3 laid out exactly as the agent writes a plain one, its keys and
    /// their fixed values compared as bytes (not read key by key: the record's object, its keys
    /// and its two named values were some 2,000 instructions of a frame, issue 30); refused
    /// otherwise, and then read by ``traffic(from:)`` from the same byte. Where the bytes are
    /// those, reading them key by key gives the same: the keys are known, each once, and the
    /// values are read by the same readers.
    private static func plainTraffic(from parser: inout JSONParser) throws(JSONParser.Refusal) -> WireTraffic {
        let depth = 3
        try parser.readLiteral(plainRecordStart, openingObjectAt: depth)
        let seq = try integer(&parser)
        let direction: TrafficRecord.Direction
        if parser.readLiteralIfPresent(plainReceivedMiddle) {
            direction = .received
        } else {
            try parser.readLiteral(plainSentMiddle)
            direction = .sent
        }
        let time = try parser.readNumber()
        try parser.readLiteral(direction == .received ? plainReceivedOrigin : plainSentOrigin)
        let bytes = try integer(&parser)
        try parser.readLiteral(plainMessageKey)
        let (message, messageBytes) = try BridgeMessageReader.messageKeepingBytes(from: &parser, depth: depth + 1)
        try parser.readLiteral(plainRecordEnd)
        return WireTraffic(
            seq: seq, direction: direction, time: time, origin: direction == .received ? .journey : .host, bytes: bytes, message: message,
            messageJSON: messageBytes, rare: nil)
    }

    /// Sets a rare field, making the record's rare fields at the first.
    private static func setRare(_ rare: inout WireTraffic.Rare?, _ change: (inout WireTraffic.Rare) -> Void) {
        var fields = rare.take() ?? WireTraffic.Rare()
        change(&fields)
        rare = fields
    }

    /// A string or `null`.
    private static func optionalString(_ parser: inout JSONParser) throws(JSONParser.Refusal) -> String? {
        try parser.readNull() ? nil : try parser.readString()
    }

    /// An integral number that fits an `Int` exactly (``WireTraffic/integer(_:)``).
    private static func integer(_ parser: inout JSONParser) throws(JSONParser.Refusal) -> Int {
        // Written plainly (nearly always): the same value, without a `Double` made and checked.
        if let plain = parser.readPlainInteger() { return plain }
        guard let value = WireTraffic.integer(.number(try parser.readNumber())) else { throw JSONParser.Refusal() }
        return value
    }
}
