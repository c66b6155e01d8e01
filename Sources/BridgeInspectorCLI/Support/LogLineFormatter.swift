import BridgeCore
import Foundation
import InspectorClient
import TerminalUI

/// One plain-text line per log row, for `tail`, `demo` without a terminal, and scripts.
///
/// Every string from the host or the journey goes through ``Sanitizer``, so a hostile action
/// name or payload cannot move the cursor, recolour or clear the terminal it is printed to.
struct LogLineFormatter {
    var timeFormat = TimeFormat()

    /// The line for `entry`; `hold` is how it was held at a breakpoint, if it was
    /// (``LiveState/holdMarks``): `HELD h1`, `EDITED h1`, `ANSWERED h1` or `DROPPED h1` ends the line.
    func line(for entry: LogEntry, hold: HoldMark? = nil) -> String {
        let time = timeFormat.clock(entry.time)
        switch entry.kind {
        case .gap(let from, let to):
            return "\(time) -- gap: missed events \(from)-\(to); state resynchronised"
        case .disconnected:
            return "\(time) -- disconnected from the host"
        case .hostRestarted(let name, let endedPid, let attachedPid):
            return "\(time) ── \(Sanitizer.sanitize(name)) restarted: pid \(endedPid) ended, pid \(attachedPid) attached ──"
        case .reattached(let restarted):
            return "\(time) -- reattached\(restarted ? " (the host restarted)" : "")"
        case .malformed:
            if entry.direction == .sent { return "\(time) OUT BAD  unread: \(Sanitizer.sanitize(entry.summary))" }
            return "\(time) IN  BAD  malformed: \(Sanitizer.sanitize(entry.summary))"
        case .message:
            break
        }
        var parts = [time, entry.direction == .received ? "IN " : "OUT"]
        switch entry.type {
        case .request: parts.append("req ")
        case .response: parts.append("resp")
        case .event: parts.append("evt ")
        case nil: parts.append("?   ")
        }
        var action = Sanitizer.sanitize(entry.summary)
        if entry.origin == .inspector { action = "✎ " + action }
        if entry.answeredByRule { action = "R " + action }
        parts.append(action)
        parts.append(Sanitizer.sanitize(entry.correlationId))
        if let status = entry.status { parts.append(status.rawValue + (entry.errorCode.map { " " + Sanitizer.sanitize($0) } ?? "")) }
        if let latency = entry.latencyMs { parts.append(TimeFormat.duration(ms: latency)) }
        if entry.deliveryError != nil { parts.append("UNDELIVERED") } else if entry.lost != nil { parts.append("LOST") }
        if let hold { parts.append(Self.tag(hold)) }
        if let fault = entry.fault { parts.append(Self.tag(fault)) }
        return parts.joined(separator: "  ")
    }

    /// `⚡ f1 errored BUSY`: what a fault rule did to a message (the host's text sanitized).
    static func tag(_ fault: FaultMark) -> String {
        var text = "⚡ " + Sanitizer.sanitize(fault.rule) + " " + fault.effect.rawValue
        if let detail = fault.detail { text += " " + Sanitizer.sanitize(detail) }
        return text
    }

    /// `EDITED h1`: how a message was held at a breakpoint, in capitals like `UNDELIVERED`.
    static func tag(_ hold: HoldMark) -> String {
        let outcome: String
        switch hold.outcome {
        case .released: outcome = "HELD"
        case .edited: outcome = "EDITED"
        case .answered: outcome = "ANSWERED"
        case .dropped: outcome = "DROPPED"
        }
        return outcome + " " + Sanitizer.sanitize(hold.id)
    }
}
