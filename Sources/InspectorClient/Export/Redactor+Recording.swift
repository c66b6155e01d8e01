import BridgeCore
import Foundation
import InspectorProtocol

/// Redacting a whole recording (`bridge-inspector redact IN OUT`), line by line.
extension Redactor {
    /// The header key that marks a redacted recording: `"redacted":true`. Readers ignore header
    /// keys they do not know, so a redacted recording loads, opens and exports as any other.
    public static let headerMark = "redacted"

    /// The header's keys in the documented order (``Recording/Header/line``); others follow, sorted.
    private static let headerOrder = ["kind", "version", "socket", "startedAt", "client"]

    /// A recording's bytes redacted: every line is read as JSON and redacted as a value (the
    /// header, frames, `hostRestarted` and `mark` lines alike; only frames carry anything to
    /// redact). A line with nothing to redact is kept byte for byte; one with something is
    /// written again, keys sorted. The header gets `"redacted":true`. A line that is not JSON
    /// (a damaged or cut-off line) cannot be redacted with certainty, so it is left out and its
    /// number is in ``report``'s `droppedLines`: what remains loads as the original did, up to
    /// where the original broke.
    public mutating func redactRecording(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if bytes.last == 0x0A { lines.removeLast() }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var sawFirst = false
        for (index, rawLine) in lines.enumerated() {
            var line = rawLine
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                output.append(0x0A)
                continue
            }
            let isFirst = !sawFirst
            sawFirst = true
            guard let value = JSONParser.parse(line, maxDepth: WireProtocol.maxAgentFrameDepth) else {
                report.droppedLines.append(index + 1)
                continue
            }
            if isFirst, case .object(var members) = value, case .string(Recording.headerKind)? = members["kind"] {
                members[Self.headerMark] = .bool(true)
                guard case .object(let redacted) = walk(.object(members), stringNesting: 0) else { continue }
                output.append(contentsOf: Self.headerLine(redacted))
                output.append(0x0A)
                continue
            }
            let before = report
            let redacted = walk(value, stringNesting: 0)
            if report == before {
                output.append(contentsOf: line)
            } else {
                var writer = JSONWriter(capacity: line.count)
                writer.value(redacted)
                output.append(contentsOf: writer.bytes)
            }
            output.append(0x0A)
        }
        return Data(output)
    }

    /// A header line with its keys in the documented order, then any others sorted.
    private static func headerLine(_ members: [String: JSONValue]) -> [UInt8] {
        var writer = JSONWriter()
        writer.objectStart()
        let rest = members.keys.filter { !headerOrder.contains($0) }.sorted()
        for key in headerOrder.filter({ members[$0] != nil }) + rest {
            writer.key(key)
            writer.value(members[key] ?? .null)
        }
        writer.objectEnd()
        return writer.bytes
    }
}
