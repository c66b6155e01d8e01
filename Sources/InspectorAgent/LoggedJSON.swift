import BridgeCore
import Foundation

/// What the inbox remembers of a native host's traffic (``AgentInbox/pushTraffic(_:_:json:time:marks:)``)
/// to answer the two questions ``TrafficMemory`` answers for other hosts: whether a pending
/// request is the message received last, and whether a held message is the one logged last in
/// its direction.
///
/// A native host says so itself in the usual case (a request routed or held as it arrived, with
/// nothing received in between: `BridgeHost.addPackageObserver(_:)`), so the hot path keeps only
/// the last message's JSON each way (a reference the host holds anyway) and copies no message
/// value. When the host does not say so, the change carries that JSON, and the agent's thread
/// reads it back and compares it with the change's message (``AgentInbox/Links/logged(is:)``),
/// which gives the answer ``TrafficMemory`` would: a native host's received message is what its
/// JSON reads as, and a sent one is read back as it was encoded. Only ``AgentInbox`` uses it,
/// under its lock.
struct LoggedJSON {
    /// The JSON of the last message received.
    private var received: Data?
    /// The JSON of the last message sent.
    private var sent: Data?

    /// Notes a message that crossed the bridge, as the agent will log it.
    mutating func note(_ direction: TrafficRecord.Direction, _ json: Data) {
        if direction == .received {
            received = json
        } else {
            sent = json
        }
    }

    /// What the agent needs to know of `change` beyond the change itself, given whether the host
    /// said it is about the message logged last.
    func links(of change: BridgeChange, isLastLogged: Bool) -> AgentInbox.Links {
        switch change {
        case .pendingAdded:
            return isLastLogged ? AgentInbox.Links(isLastReceived: true) : AgentInbox.Links(lastLoggedJSON: received)
        case .held(let held):
            if isLastLogged { return AgentInbox.Links(isLastLogged: true) }
            return AgentInbox.Links(lastLoggedJSON: held.direction == .received ? received : sent)
        default:
            return AgentInbox.Links()
        }
    }

    /// Forgets every message (the inbox closed).
    mutating func removeAll() {
        received = nil
        sent = nil
    }
}
