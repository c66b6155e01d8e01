import Foundation

/// Decides, for each message in flight, whether the host's real handling goes wrong on purpose:
/// a request from the journey answered with an error, answered late, never answered or lost, or
/// a message the host sends lost, sent twice, sent late or out of order.
///
/// An inspector agent sets one with ``BridgeHost/setFaultInjector(_:)`` while it has fault rules,
/// so that a journey developer can make the web SDK's unhappy paths happen on demand. It runs on
/// the host's main actor for every request received (before breakpoints and routing) and every
/// response or event about to be delivered (before breakpoints), so it must decide at once and
/// never block.
///
/// ```swift
/// final class BusyCaptures: BridgeFaultInjector {
///     func fault(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> FaultVerdict? {
///         guard direction == .received, message.payload.action == "camera.document.capture" else { return nil }
///         return FaultVerdict(rule: "f1", action: .error(BridgeErrorCode.busy.payload()))
///     }
/// }
/// host.setFaultInjector(BusyCaptures())
/// ```
@MainActor
public protocol BridgeFaultInjector: AnyObject {
    /// What to do to `message`, or `nil` to let the host handle it as it would.
    ///
    /// Called with `.received` for requests only, and with `.sent` for every response and event
    /// about to be delivered. An action that does not apply to the direction (``FaultAction/duplicate``
    /// on a request, ``FaultAction/error(_:)`` on a sent message) is ignored.
    func fault(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> FaultVerdict?
}

/// A fault injector's answer: which rule fired, and what it does.
public struct FaultVerdict: Sendable, Hashable {
    /// The rule's name (`f1`), kept in the ``FaultMark`` of every message it changes.
    public var rule: String
    /// What happens to the message.
    public var action: FaultAction

    /// Creates a verdict.
    public init(rule: String, action: FaultAction) {
        self.rule = rule
        self.action = action
    }
}

/// What a fault does to one message.
public enum FaultAction: Sendable, Hashable {
    /// Either way: the message goes on late, after this many seconds on the host's
    /// ``BridgeHost/clock``. On a request, its handler runs at once and its answer goes out late.
    case delay(seconds: Double)
    /// A request only: answered at once with this error (a real response through the normal send
    /// path); its handler never runs.
    case error(BridgeErrorPayload)
    /// A request only: its handler runs, and its answer is swallowed, so the journey's own
    /// timeout fires.
    case neverAnswer
    /// Either way: a request never reaches the host (no handler, not pending, not in
    /// `receivedMessages`); a response or event is never delivered. Both are still logged.
    case drop
    /// A response or event only: delivered twice.
    case duplicate
    /// A response or event only: held back and delivered right after the next message the host
    /// delivers, or after this many seconds if none comes first.
    case reorder(boundSeconds: Double)
}

/// On a message a fault rule changed: which rule, and what it did. Observers see it on the
/// message's ``TrafficRecord``, so a log shows every faulted message.
public struct FaultMark: Sendable, Hashable, Codable {
    /// What the rule did.
    public enum Effect: String, Sendable, Codable {
        /// A request answered late, or a response or event delivered late (marked on what went out late).
        case delayed
        /// A request answered with an error instead of by its handler (marked on the request and on the error answer).
        case errored
        /// A request whose answer was swallowed (marked on the request, and on the swallowed answer, never delivered).
        case neverAnswered = "never-answered"
        /// Never routed (a request) or never delivered (a response or event).
        case dropped
        /// Delivered twice (both copies are marked).
        case duplicated
        /// Delivered after the next message (or after the bound).
        case reordered
    }

    /// The rule's name (`f1`).
    public var rule: String
    /// What it did.
    public var effect: Effect
    /// A detail for a person: the error code (`BUSY`) or the delay (`2000ms`).
    public var detail: String?

    /// Creates a mark.
    public init(rule: String, effect: Effect, detail: String? = nil) {
        self.rule = rule
        self.effect = effect
        self.detail = detail
    }
}
