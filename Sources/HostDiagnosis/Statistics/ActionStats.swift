import BridgeCore

/// The statistics of one action: how often the journey asked for it, how the host answered, and
/// how long the answers took. One row of ``ActionStatistics``.
public struct ActionStats: Sendable, Equatable {
    /// The action (`payload.action`), exactly as the journey sent it. Untrusted text: make it
    /// safe before it reaches a terminal.
    public var action: String
    /// Requests for this action received from the journey.
    public var requests = 0
    /// Of those, the requests the host answered (a response with the same correlation id
    /// followed in the log).
    public var answered = 0
    /// Answers by status: `success`, `error`, `cancelled`, `unsupported`.
    public var statuses: [BridgeResponseStatus: Int] = [:]
    /// The latency percentiles of the answered requests (from request to response, as the
    /// inspector saw them, less any time held at a breakpoint: the host's answer time), or `nil`
    /// when none was answered.
    public var latency: LatencySummary?
    /// Of the answered requests, those held at a breakpoint on the way (the request or its
    /// answer).
    public var held = 0
    /// How long those were held, in milliseconds, all together: left out of ``latency``.
    public var heldMs = 0.0
    /// Events with this action, received from the journey or sent by the host.
    public var events = 0

    /// A row with nothing counted yet.
    public init(action: String) {
        self.action = action
    }

    /// Requests with no answer in the log: still pending, abandoned, or answered before the
    /// inspector attached to a restarted host.
    public var unanswered: Int { requests - answered }

    /// Answers with `status`.
    public func count(_ status: BridgeResponseStatus) -> Int { statuses[status] ?? 0 }

    /// Answers that were not `success` (error, cancelled or unsupported).
    public var failed: Int { answered - count(.success) }

    /// The error rate: the answers that were **not** `success` (error, cancelled or unsupported)
    /// divided by the requests answered, from 0 to 1; `nil` when none was answered (unanswered
    /// requests are not counted as errors: they are in ``unanswered``).
    public var errorRate: Double? {
        answered == 0 ? nil : Double(failed) / Double(answered)
    }
}
