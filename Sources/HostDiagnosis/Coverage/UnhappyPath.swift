import BridgeCore

/// One unhappy path the journey met in a session, and how it answered (``JourneyCoverage``).
///
/// An unhappy path is either an answer to one of the journey's requests that is not `success`
/// (an error with its code, `cancelled`, `unsupported`), seen by the journey when the answer was
/// sent, or a request the journey gave up on: no answer within its timeout (``JourneyTimeouts``,
/// the web SDK's 5 s for `capability.query` and 30 s otherwise), seen when the timeout ran out.
/// An answer sent after the timeout reached no one, so it is a timeout, not an answer.
public struct UnhappyPath: Sendable, Equatable {
    /// What the journey met.
    public enum Kind: Sendable, Equatable {
        /// An answer with status `error` and this code (`""` when the answer had no code).
        case error(code: String)
        /// An answer with status `cancelled`.
        case cancelled
        /// An answer with status `unsupported`.
        case unsupported
        /// No answer within the journey's timeout, in milliseconds.
        case journeyTimeout(ms: Double)
    }

    /// How the journey answered the unhappy path, by these exact rules (``JourneyCoverage/reactionWindowMs``
    /// is the window, 30 s from the moment the journey met it):
    public enum Reaction: Sendable, Equatable {
        /// The journey sent a request for the same action within the window, after `afterMs`
        /// (the first such request), and the path was recoverable: a retry.
        case retried(afterMs: Double)
        /// As ``retried(afterMs:)``, but the path was not recoverable (an `INTERNAL_ERROR`, an
        /// `unsupported` answer, …): the journey retried what the web SDK says will not get
        /// better. A finding.
        case retriedNonRecoverable(afterMs: Double)
        /// No request for the same action within the window: the journey gave up (or moved on).
        case gaveUp
        /// The window has not run out yet and no request for the action came: undecided.
        case waiting
    }

    /// What was met.
    public var kind: Kind
    /// The action of the request it answered.
    public var action: String
    /// The request's correlation id. Untrusted text.
    public var correlationId: String
    /// The agent's sequence number of the request's row (0 when not known): what a fault
    /// scenario's run compares with its start, immune to the clocks of two machines.
    public var requestSeq: Int
    /// When the journey met it (the answer's time, or the request's time plus the timeout), in
    /// milliseconds since 1970, on the host's clock.
    public var time: Double
    /// Whether the web SDK treats it as recoverable: a documented code's flag
    /// (``BridgeErrorCode/isRecoverable``), for another code the answer's own `recoverable`;
    /// `cancelled` and a timeout are recoverable (as `CANCELLED` and `TIMEOUT`), `unsupported` is not.
    public var recoverable: Bool
    /// Whether an inspector made the answer (or the request): still met, marked ✎.
    public var inspectorMade: Bool
    /// How the journey answered.
    public var reaction: Reaction
    /// For a cancellation (status `cancelled`, or the code `CANCELLED`): how long after it the
    /// journey sent `journey.cancel`, when it did within the window; `nil` otherwise.
    public var journeyCancelAfterMs: Double?

    /// Creates an entry.
    public init(
        kind: Kind, action: String, correlationId: String, time: Double, recoverable: Bool, inspectorMade: Bool, reaction: Reaction,
        journeyCancelAfterMs: Double? = nil, requestSeq: Int = 0
    ) {
        self.kind = kind
        self.action = action
        self.correlationId = correlationId
        self.requestSeq = requestSeq
        self.time = time
        self.recoverable = recoverable
        self.inspectorMade = inspectorMade
        self.reaction = reaction
        self.journeyCancelAfterMs = journeyCancelAfterMs
    }

    /// Whether it is a cancellation: status `cancelled`, or an error with the code `CANCELLED`.
    public var isCancellation: Bool {
        switch kind {
        case .cancelled: return true
        case .error(let code): return code == BridgeErrorCode.cancelled.rawValue
        default: return false
        }
    }

    /// What was met, in a word or two: the error code, `cancelled`, `unsupported`, `no answer in 30s`.
    public var label: String {
        switch kind {
        case .error(let code): return code.isEmpty ? "error without a code" : code
        case .cancelled: return "cancelled"
        case .unsupported: return "unsupported"
        case .journeyTimeout(let ms): return "no answer in \(StatisticsTable.duration(ms))"
        }
    }

    /// The reaction's name in the JSON: `retried`, `retriedNonRecoverable`, `gaveUp`, `waiting`.
    public var reactionName: String {
        switch reaction {
        case .retried: return "retried"
        case .retriedNonRecoverable: return "retriedNonRecoverable"
        case .gaveUp: return "gaveUp"
        case .waiting: return "waiting"
        }
    }

    /// How long after it the journey retried, when it did.
    public var retryAfterMs: Double? {
        switch reaction {
        case .retried(let ms), .retriedNonRecoverable(let ms): return ms
        case .gaveUp, .waiting: return nil
        }
    }
}
