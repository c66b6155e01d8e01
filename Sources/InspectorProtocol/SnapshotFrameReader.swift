import BridgeCore
import Foundation

/// Reads a `snapshot` frame, `{"kind":"snapshot","seq":N,"state":{...}}`, straight from its bytes
/// in one pass: the log's records are read one by one as a `traffic` event's record is
/// (`TrafficFrameReader.traffic(from:)`), the pending requests likewise, each keeping its
/// message's bytes (``WireTraffic/messageJSON``, ``WirePending/messageJSON``); only the small
/// rest of the state (host, counts, slots, …) is parsed into `JSONValue`s and decoded through
/// `Decodable`, as the full decoding does. No `JSONValue` is built for the log, which is most of a
/// snapshot (a 30 MiB one when a client attaches to a busy host: issue 30).
///
/// It takes only snapshots that ``AgentFrame/read(_:)``'s full decoding reads, and reads them to
/// equal values, under the same JSON rule (``WireProtocol/maxAgentFrameDepth`` levels, duplicate
/// keys, numbers, escapes, UTF-8); anything else it refuses without saying why, and the frame is
/// then decoded the full way, which accepts it or says what is wrong.
///
/// ```swift
/// if let frame = SnapshotFrameReader.frame(in: line) { ... }   // nil: decode the full way
/// ```
///
/// Levels are counted from 0 at the frame here, one less than the other readers count (the frame
/// at level 1), under a limit one less than ``WireProtocol/maxAgentFrameDepth``: the same limit,
/// shifted so that a record of the log (level 4 of the frame) is at level 3, where
/// `TrafficFrameReader.traffic(from:)` reads the record of a `traffic` event.
enum SnapshotFrameReader {
    /// The snapshot `line` holds, or `nil` when it is not one this reader takes. The line is a
    /// `Data` or the client framer's `[UInt8]`, read in place either way.
    static func frame<Line: ContiguousBytes & RandomAccessCollection>(in line: Line) -> AgentFrame?
    where Line.Element == UInt8, Line.Index == Int {
        guard let parts = JSONParser.reading(line, maxDepth: maxDepth, { parser throws(JSONParser.Refusal) in try read(&parser, line: line) })
        else { return nil }
        // The rest through `Decodable`, as the full way decodes it, with the two lists empty.
        var frame: [String: JSONValue] = ["kind": .string("snapshot"), "state": .object(parts.rest)]
        frame["seq"] = parts.seq
        guard case .snapshot(let seq, var state)? = try? AgentFrame.decodedThroughDecodable(.object(frame)) else { return nil }
        state.messages = parts.messages
        state.pending = parts.pending
        return .snapshot(seq: seq, state: state)
    }

    /// The agent's limit, shifted by the one level this reader counts from 0 (see above).
    static let maxDepth = WireProtocol.maxAgentFrameDepth - 1

    /// What one pass reads: the two lists, and the rest as values to decode.
    private struct Parts {
        var seq: JSONValue?
        var messages: [WireTraffic] = []
        var pending: [WirePending] = []
        var rest: [String: JSONValue] = [:]
    }

    private static let frameKeys = JSONKeySet(["kind", "seq", "state"])
    private static let snapshotKind = JSONKeySet(["snapshot"])
    /// The two lists, then every other field of ``WireState`` (its coding keys): a field not
    /// named here would be skipped, and the state decoded without it (a test checks them against
    /// ``WireState``'s stored properties).
    static let stateFieldNames = [
        "messages", "pending", "host", "journeyAttached", "lastError", "errorHistory", "malformed", "slots", "customCapabilities",
        "counts", "held", "breakpoints", "faults", "lastUnreadSentReport",
    ]
    private static let stateKeys = JSONKeySet(strings: stateFieldNames)
    private static let pendingKeys = JSONKeySet(["correlationId", "action", "since", "truncated", "message"])

    /// The frame at level 0.
    private static func read<Line: RandomAccessCollection>(_ parser: inout JSONParser, line: Line) throws(JSONParser.Refusal) -> Parts
    where Line.Element == UInt8, Line.Index == Int {
        var parts = Parts()
        var isSnapshot = false
        var hasState = false
        try parser.readObject(depth: 0, keys: frameKeys) { parser, key throws(JSONParser.Refusal) in
            switch key {
            case 0:
                // Any other kind is decoded the full way.
                guard try parser.readString(among: snapshotKind) == 0 else { throw JSONParser.Refusal() }
                isSnapshot = true
            case 1: parts.seq = try parser.readValue(depth: 0)
            default:
                try readState(&parser, line: line, into: &parts)
                hasState = true
            }
        }
        guard isSnapshot, hasState else { throw JSONParser.Refusal() }
        return parts
    }

    /// The state at level 1: both lists must be there (the full way requires them).
    private static func readState<Line: RandomAccessCollection>(
        _ parser: inout JSONParser, line: Line, into parts: inout Parts
    ) throws(JSONParser.Refusal) where Line.Element == UInt8, Line.Index == Int {
        var hasMessages = false
        var hasPending = false
        try parser.readObject(depth: 1, keys: stateKeys) { parser, key throws(JSONParser.Refusal) in
            switch key {
            case 0:
                try parser.readArray(depth: 2) { parser throws(JSONParser.Refusal) in
                    parts.messages.append(try TrafficFrameReader.traffic(from: &parser))
                }
                hasMessages = true
            case 1:
                try parser.readArray(depth: 2) { parser throws(JSONParser.Refusal) in
                    parts.pending.append(try pending(from: &parser, line: line))
                }
                hasPending = true
            default:
                parts.rest[stateFieldNames[key]] = try parser.readValue(depth: 1)
            }
        }
        guard hasMessages, hasPending else { throw JSONParser.Refusal() }
        parts.rest["messages"] = .array([])
        parts.rest["pending"] = .array([])
    }

    /// A pending request at level 3 of `line`, as ``WirePending/init(validating:)`` reads it from
    /// a value, with its message's bytes.
    private static func pending<Line: RandomAccessCollection>(
        from parser: inout JSONParser, line: Line
    ) throws(JSONParser.Refusal) -> WirePending where Line.Element == UInt8, Line.Index == Int {
        let depth = 3
        var correlationId: String?
        var action: String?
        var since: Double?
        var truncated: Bool?
        var message: (BridgeMessage, Range<Int>)?
        try parser.readObject(depth: depth, keys: pendingKeys) { parser, key throws(JSONParser.Refusal) in
            switch key {
            case 0: correlationId = try parser.readString()
            case 1: action = try parser.readString()
            case 2: since = try parser.readNumber()
            case 3: truncated = try parser.readNull() ? nil : try parser.readBool()
            default:
                let start = parser.offset
                let read = try BridgeMessageReader.message(from: &parser, depth: depth + 1)
                message = (read, start..<parser.offset)
            }
        }
        guard let correlationId, let action, let since, let message = message.take() else { throw JSONParser.Refusal() }
        var record = WirePending(correlationId: correlationId, action: action, since: since, truncated: truncated, message: message.0)
        record.messageJSON = Data(line[(line.startIndex + message.1.lowerBound)..<(line.startIndex + message.1.upperBound)])
        return record
    }
}
