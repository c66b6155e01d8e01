import Foundation

/// Decides, for each message in flight, whether it stops at a breakpoint: a request from the
/// journey before any handler or slot sees it, or a message the host is about to deliver.
///
/// An inspector agent sets one with ``BridgeHost/setInterceptor(_:)`` while it has breakpoints.
/// It runs on the host's main actor for every request received and every message sent, so it
/// must decide at once (match a filter) and never block.
///
/// ```swift
/// final class HoldCaptures: BridgeInterceptor {
///     func hold(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> HoldRequest? {
///         message.payload.action == "camera.document.capture" ? HoldRequest(breakpoint: "b1", timeLimit: 60) : nil
///     }
/// }
/// host.setInterceptor(HoldCaptures())
/// // the next capture request waits in host.heldMessages until
/// try host.releaseHeld("h1")
/// ```
@MainActor
public protocol BridgeInterceptor: AnyObject {
    /// How to hold `message`, or `nil` to let it go on.
    ///
    /// Called with `.received` for requests only (events and responses from the journey are
    /// never routed, so there is nothing to hold them before), and with `.sent` for every
    /// response and event about to be delivered.
    func hold(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> HoldRequest?
}

/// An interceptor's answer for a message it holds: which breakpoint, and for how long at most.
public struct HoldRequest: Sendable, Hashable {
    /// The breakpoint's name, kept with the held message.
    public var breakpoint: String
    /// Seconds after which the host releases the message as it is if nobody has acted on it, so
    /// that nothing is held for ever. At least 0.01.
    public var timeLimit: Double

    /// Creates an answer.
    public init(breakpoint: String, timeLimit: Double) {
        self.breakpoint = breakpoint
        self.timeLimit = timeLimit
    }
}

/// A message stopped by a breakpoint, waiting for a person to release, edit, answer or drop it.
public struct HeldMessage: Sendable, Hashable {
    /// The host's id for the hold, `h1`, `h2`, …, unique for the host's lifetime.
    public var id: String
    /// `.received`: a request from the journey, not yet routed. `.sent`: a response or event not
    /// yet delivered.
    public var direction: TrafficRecord.Direction
    /// The message.
    public var message: BridgeMessage
    /// Its exact JSON, as received or as it would be delivered.
    public var json: Data
    /// When it was held.
    public var since: Date
    /// The breakpoint that held it (the interceptor's name for it).
    public var breakpoint: String
    /// Seconds after ``since`` when the host releases it as it is.
    public var timeLimit: Double

    /// When the host releases it as it is if nobody acts first.
    public var deadline: Date { since.addingTimeInterval(timeLimit) }

    /// Creates a record (adapters build their own).
    public init(
        id: String, direction: TrafficRecord.Direction, message: BridgeMessage, json: Data, since: Date, breakpoint: String,
        timeLimit: Double
    ) {
        self.timeLimit = timeLimit
        self.id = id
        self.direction = direction
        self.message = message
        self.json = json
        self.since = since
        self.breakpoint = breakpoint
    }
}

/// How a held message left the hold.
public struct HeldResolution: Sendable, Hashable {
    /// What was done with it.
    public enum Outcome: String, Sendable, Codable {
        /// Released as it was: routed (a request) or delivered (a response or event).
        case released
        /// Released with a changed payload.
        case edited
        /// A held request answered by hand: its handler never ran.
        case answered
        /// Never routed or delivered.
        case dropped
    }

    /// Why it was resolved.
    public enum Reason: String, Sendable, Codable {
        /// Someone asked (an inspector command, or the app's own code).
        case command
        /// It was held longer than its breakpoint allows.
        case timeLimit
        /// The inspector that owns its breakpoint went away.
        case ownerGone
        /// Its breakpoint was removed.
        case breakpointRemoved
        /// The interceptor was removed (the agent stopped).
        case interceptorRemoved
        /// The app answered the request itself with ``BridgeHost/respond(to:status:data:error:)``.
        case answeredByHost
        /// The page that held it went (a reload or a navigation) before anyone acted: on a host
        /// seen through GBGBridge's public API, where the page holds what the journey posts.
        case journeyGone
    }

    /// The hold's id.
    public var id: String
    /// The held message's correlation id.
    public var correlationId: String
    /// Which way the held message was going.
    public var direction: TrafficRecord.Direction
    /// What was done with it.
    public var outcome: Outcome
    /// Why.
    public var reason: Reason
    /// For `.edited`: the message that went on instead. For `.answered`: the response sent.
    public var message: BridgeMessage?
    /// When it was resolved.
    public var time: Date

    /// Creates a record.
    public init(
        id: String, correlationId: String, direction: TrafficRecord.Direction, outcome: Outcome, reason: Reason,
        message: BridgeMessage? = nil, time: Date
    ) {
        self.id = id
        self.correlationId = correlationId
        self.direction = direction
        self.outcome = outcome
        self.reason = reason
        self.message = message
        self.time = time
    }
}
