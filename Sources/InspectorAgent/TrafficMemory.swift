import BridgeCore
import Foundation

/// What the host's side of the inbox remembers of the messages a host reports as whole changes
/// or as values and text (``AgentInbox/push(_:tag:causedByRunningCommand:)``,
/// ``AgentInbox/pushReceived(_:time:tag:)``, ``AgentInbox/pushSent(json:time:)``: the GBGBridge
/// adapter), so that the agent can tell whether a change names the message it logged just before.
/// A native host reports in pieces and says itself what this works out (``LoggedJSON``).
///
/// The agent reuses what it already has when a change names a message it logged just before: a
/// request that goes to `pendingRequests` as it arrives keeps the bytes it was received as, and a
/// message held after it was logged marks that traffic record when it is released edited. Both
/// questions compare whole messages. The host's side answers them only for a message it was
/// handed as a whole record (in the order of the changes, as a ``AgentInbox/Links`` value);
/// otherwise the change carries what the agent's thread needs to compare there: the text of a
/// message reported as text (``AgentInbox/Links/lastLoggedJSON``), or word that the message is
/// the one the agent's thread encoded last (``AgentInbox/Links/isLastReceivedEncoded``), so the
/// host's thread compares no message it was handed as a value or text. Only ``AgentInbox`` uses
/// it, under its lock.
struct TrafficMemory {
    /// The last message logged one way, as the host handed it over.
    enum Last {
        case none
        /// A whole traffic record's message.
        case message(BridgeMessage)
        /// A message reported as its text (BridgeCore's message JSON as it stands).
        case text(String)
        /// A message handed over as a value for the agent's thread to encode, which keeps it
        /// (``AgentInbox/ReceivedOnAgentThread``).
        case encodedOnAgentThread
    }

    /// The last message received (logged with direction `received`).
    private var lastReceived = Last.none
    /// The last message sent.
    private var lastSent = Last.none

    /// Notes a traffic record, as the agent will log it.
    mutating func note(_ direction: TrafficRecord.Direction, _ last: Last) {
        if direction == .received {
            lastReceived = last
        } else {
            lastSent = last
        }
    }

    /// Notes a whole traffic record's message, as the agent will log it.
    mutating func note(_ direction: TrafficRecord.Direction, _ message: BridgeMessage) {
        note(direction, .message(message))
    }

    /// What the agent needs to know of `change` beyond the change itself.
    func links(of change: BridgeChange) -> AgentInbox.Links {
        switch change {
        case .pendingAdded(let request):
            return Self.links(lastReceived, message: request.message, isLastReceived: true)
        case .held(let held):
            return Self.links(held.direction == .received ? lastReceived : lastSent, message: held.message, isLastReceived: false)
        default:
            return AgentInbox.Links()
        }
    }

    /// Whether `message` is the `last` one, for a pending request (`isLastReceived`) or a held
    /// message: answered here for a whole record's message, left to the agent's thread otherwise.
    private static func links(_ last: Last, message: BridgeMessage, isLastReceived: Bool) -> AgentInbox.Links {
        switch last {
        case .none:
            return AgentInbox.Links()
        case .message(let logged):
            let same = logged == message
            return isLastReceived ? AgentInbox.Links(isLastReceived: same) : AgentInbox.Links(isLastLogged: same)
        case .text(let text):
            return AgentInbox.Links(lastLoggedJSON: Data(text.utf8))
        case .encodedOnAgentThread:
            return AgentInbox.Links(isLastReceivedEncoded: true)
        }
    }

    /// Forgets every message (the inbox closed).
    mutating func removeAll() {
        lastReceived = .none
        lastSent = .none
    }
}
