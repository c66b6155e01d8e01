import BridgeCore

/// What the host's side of the inbox remembers of the messages a host reports as whole changes
/// (``AgentInbox/push(_:tag:causedByRunningCommand:)``: the GBGBridge adapter), so that the
/// agent's thread never holds (and never retains or releases) the host's message values. A
/// native host reports in pieces and says itself what this works out (``LoggedJSON``).
///
/// The agent reuses what it already has when a change names a message it logged just before: a
/// request that goes to `pendingRequests` as it arrives keeps the bytes it was received as, and a
/// message held after it was logged marks that traffic record when it is released edited. Both
/// questions compare whole messages; they are answered here, on the host's thread, in the order
/// of the changes, and travel with the change as a ``AgentInbox/Links`` value. Only
/// ``AgentInbox`` uses it, under its lock.
struct TrafficMemory {
    /// The last message received (logged with direction `received`).
    private var lastReceived: BridgeMessage?
    /// The last message logged each way.
    private var lastSent: BridgeMessage?

    /// Notes a traffic record, as the agent will log it.
    mutating func note(_ direction: TrafficRecord.Direction, _ message: BridgeMessage) {
        if direction == .received {
            lastReceived = message
        } else {
            lastSent = message
        }
    }

    /// What the agent needs to know of `change` beyond the change itself.
    func links(of change: BridgeChange) -> AgentInbox.Links {
        switch change {
        case .pendingAdded(let request):
            return AgentInbox.Links(isLastReceived: lastReceived.map { $0 == request.message } ?? false)
        case .held(let held):
            let logged = held.direction == .received ? lastReceived : lastSent
            return AgentInbox.Links(isLastLogged: logged.map { $0 == held.message } ?? false)
        default:
            return AgentInbox.Links()
        }
    }

    /// Forgets every message (the inbox closed).
    mutating func removeAll() {
        lastReceived = nil
        lastSent = nil
    }
}
