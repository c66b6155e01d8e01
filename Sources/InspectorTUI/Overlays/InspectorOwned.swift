import InspectorProtocol
import TerminalUI

/// Something an inspector set on the host that only it may remove, and that goes when it
/// disconnects: a breakpoint (docs/inspector-protocol.md section 13) or a fault rule (section 14).
///
/// The views that list every inspector's (``BreakpointsView``, ``FaultsView``) read who set each
/// one, draw its owner and refuse to remove another inspector's through this one place, so both
/// say the same thing the same way:
///
/// ```swift
/// if let refusal = breakpoint.removalRefusal(in: context) { return refusal }
/// return .sendAndStay(.removeBreakpoint(.init(id: breakpoint.id)), label: "remove breakpoint \(breakpoint.id)")
/// ```
protocol InspectorOwned {
    /// The id the agent gave it (`b1`, `f1`).
    var id: String { get }
    /// The name of the inspector that set it (its hello's `client`): from a socket, untrusted.
    var owner: String { get }
    /// The agent's id of the inspector that set it.
    var ownerClient: Int { get }
}

extension WireBreakpoint: InspectorOwned {}
extension WireFault: InspectorOwned {}

extension InspectorOwned {
    /// Whether this inspector set it; `nil` when the agent does not say who we are (an agent
    /// older than breakpoints).
    func isOwn(in context: OverlayContext) -> Bool? {
        context.clientId.map { $0 == ownerClient }
    }

    /// The notice refusing to remove it when another inspector set it (naming that inspector,
    /// and when it goes), or `nil` when this inspector may ask: its own, or when the agent does
    /// not say who we are (the agent then decides).
    func removalRefusal(in context: OverlayContext) -> OverlayAction? {
        guard isOwn(in: context) == false else { return nil }
        return .flash(
            "\(Sanitizer.sanitize(id)) is \(Sanitizer.sanitize(owner))'s (inspector \(ownerClient)): only it can remove it, and it goes when that inspector disconnects",
            isError: true)
    }

    /// Who set it, as the list's last column shows it: `● you`, or the other inspector's name
    /// and id followed by `others` (made safe for a terminal), or the name alone when the agent
    /// does not say who we are.
    func ownerColumn(in context: OverlayContext, others: String = "") -> String {
        switch isOwn(in: context) {
        case true?: return "● you"
        case false?: return Sanitizer.sanitize("\(owner) (inspector \(ownerClient))\(others)")
        case nil: return Sanitizer.sanitize(owner)
        }
    }
}
