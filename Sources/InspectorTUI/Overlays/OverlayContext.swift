import InspectorClient
import InspectorProtocol
import TerminalUI

/// What a view over the main screen may read of the model while it handles a key or draws:
/// the host's state, the screen, the clock and the inspector's own records, and nothing it
/// could change. A view answers with an ``OverlayAction``; only the model acts on it.
///
/// Made by the model (``InspectorModel/overlayContext``) once per key or frame. The copies are
/// cheap: `live`, `rules` and `actions` share their storage with the model's.
struct OverlayContext: Sendable {
    /// The terminal size.
    var size: Size
    /// What the host told us.
    var live: LiveState
    /// Now, in milliseconds since 1970.
    var now: Double
    /// How times are shown.
    var timeFormat: TimeFormat
    /// The agent's number for this inspector's connection, or `nil` (``InspectorModel/clientId``).
    var clientId: Int?
    /// A recording opened offline, or an inspector started with `--read-only`: nothing can be sent.
    var readOnly: Bool
    /// Why, as a notice starts (``InspectorModel/readOnlyWhy``).
    var readOnlyWhy = "this is a recording"
    /// The reply rules, with their hit counts.
    var rules: ReplyRuleBook
    /// What the inspector did on the person's behalf, oldest first.
    var actions: [ActionRecord]
    /// The notices it showed, oldest first (``InspectorModel/notices``).
    var notices: [NoticeRecord] = []
    /// Responses sent by hand, per action, offered first by the respond dialog.
    var rememberedResponses: RememberedResponses
    /// The host's clock pending ages are measured by (``InspectorModel/pendingClock``).
    var pendingClock: Double
    /// The journey's timeouts: a request pending longer is one the journey gave up on.
    var journeyTimeouts = JourneyTimeouts()

    /// How long ago the journey gave up on `request` (it has waited past its timeout), or `nil`
    /// while the journey still waits for it (or it is no longer pending).
    func abandonedFor(_ request: WirePending) -> Double? {
        guard let age = pendingAge(of: request) else { return nil }
        let timeout = journeyTimeouts.timeoutMs(forAction: request.action)
        return age > timeout ? age - timeout : nil
    }

    /// How long `request` has waited (stopped while the host is gone), or `nil` when it is no
    /// longer pending.
    func pendingAge(of request: WirePending) -> Double? {
        guard live.pending.contains(where: { $0.correlationId == request.correlationId }) else { return nil }
        return max(0, pendingClock - request.since)
    }
}

extension InspectorModel {
    /// What the views over the main screen read of this model (``OverlayContext``).
    var overlayContext: OverlayContext {
        OverlayContext(
            size: size, live: live, now: now, timeFormat: timeFormat, clientId: clientId, readOnly: readOnly, readOnlyWhy: readOnlyWhy, rules: rules, actions: actions,
            notices: notices, rememberedResponses: rememberedResponses, pendingClock: pendingClock, journeyTimeouts: journeyTimeouts)
    }
}
