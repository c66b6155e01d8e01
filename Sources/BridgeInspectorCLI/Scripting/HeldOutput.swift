import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// How the hold commands (`held`, `release`, `answer`, `drop`) and `break` show held messages.
enum HeldOutput {
    /// What to do when the host refuses an action on a hold (not held, already resolved).
    static let refusalHint = "list what is held now with `bridge-inspector held`"

    /// One line for a held message: its hold id, IN/OUT, type, action, correlation id, the
    /// breakpoint that holds it and when it is released as it is.
    static func line(_ held: WireHeld, now: Double, format: TimeFormat = TimeFormat()) -> String {
        let message = held.message
        var parts = [
            held.id, held.direction == .received ? "IN " : "OUT", typeLabel(message.type), ScriptOutput.safe(message.payload.action),
            ScriptOutput.safe(message.correlationId), "at \(ScriptOutput.safe(held.breakpoint))",
        ]
        if let status = message.payload.status { parts.insert(status.rawValue, at: 4) }
        parts.append("held \(TimeFormat.duration(ms: max(0, now - held.since)))")
        if let deadline = held.deadline { parts.append("released as is at \(format.clock(deadline)) (in \(TimeFormat.duration(ms: max(0, deadline - now))))") }
        if held.truncated == true { parts.append("[too large to edit]") }
        return parts.joined(separator: "  ")
    }

    /// One line for a resolution: what happened to the hold, and why.
    static func line(_ resolution: WireHeldResolution, format: TimeFormat = TimeFormat()) -> String {
        var text = "\(resolution.id)  \(resolution.outcome.rawValue)  \(ScriptOutput.safe(resolution.correlationId))  (\(reasonText(resolution.reason))"
        if let by = resolution.by { text += " by \(ScriptOutput.safe(by))" }
        return text + ") at \(format.clock(resolution.time))"
    }

    /// "NOT HELD  IN   camera.document.capture  cap-9  at b1  not held: the host already holds 100 messages, …".
    static func line(_ skipped: WireHoldSkipped) -> String {
        [
            "NOT HELD", skipped.direction == .received ? "IN " : "OUT", ScriptOutput.safe(skipped.action),
            ScriptOutput.safe(skipped.correlationId), "at \(ScriptOutput.safe(skipped.breakpoint))", skipped.why,
        ].joined(separator: "  ")
    }

    static func typeLabel(_ type: MessageType) -> String {
        switch type {
        case .request: return "req "
        case .response: return "resp"
        case .event: return "evt "
        }
    }

    static func reasonText(_ reason: HeldResolution.Reason) -> String {
        switch reason {
        case .command: return "a command"
        case .timeLimit: return "its time limit passed"
        case .ownerGone: return "the breakpoint's inspector went away"
        case .breakpointRemoved: return "its breakpoint was removed"
        case .interceptorRemoved: return "the agent stopped"
        case .answeredByHost: return "the app answered it"
        case .journeyGone: return "the page that held it went"
        }
    }

    /// Now, in milliseconds since 1970 (the agent's times).
    static var nowMs: Double { (Date().timeIntervalSince1970 * 1000).rounded() }
}
