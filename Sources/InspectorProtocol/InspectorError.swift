/// An error the agent reports: in a `reply` to a command, or about a bad frame.
///
/// `code` is stable and meant for programs; `message` is a sentence for a person, saying what
/// happened and what to do.
public struct InspectorError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    /// A stable code from ``InspectorErrorCode`` (unknown codes from newer agents are kept as text).
    public var code: String
    /// What happened, for a person.
    public var message: String

    /// Creates an error.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// Creates an error with a known code.
    public init(_ code: InspectorErrorCode, _ message: String) {
        self.init(code: code.rawValue, message: message)
    }

    /// `message (code)`.
    public var description: String { "\(message) (\(code))" }

    /// The known code, if it is one.
    public var knownCode: InspectorErrorCode? { InspectorErrorCode(rawValue: code) }
}

/// The error codes of the inspector protocol.
public enum InspectorErrorCode: String, Codable, Sendable, CaseIterable {
    /// The request is not in `pendingRequests` (never was, or its id is wrong).
    case notPending = "not_pending"
    /// The request was already answered (by another client, the app or a handler).
    case alreadyAnswered = "already_answered"
    /// The request belongs to a handler or capture slot that is still working on it.
    case handledElsewhere = "handled_elsewhere"
    /// The capture slot has no active request to complete or cancel.
    case slotIdle = "slot_idle"
    /// The request is held at a breakpoint: `answer`, `release` or `drop` it by its hold id.
    case held = "held"
    /// Nothing is held with that id.
    case notHeld = "not_held"
    /// The held message was already released, answered or dropped (by another inspector, its
    /// time limit, or the app).
    case alreadyResolved = "already_resolved"
    /// No breakpoint has that id.
    case notFound = "not_found"
    /// The breakpoint belongs to another inspector.
    case notOwner = "not_owner"
    /// The host cannot do this: it is seen through an API that has no way to (the host's
    /// `unsupported` list in the handshake says why).
    case unsupported = "unsupported"
    /// A command's arguments are missing or wrong.
    case invalidArguments = "invalid_arguments"
    /// The command name is not known to this agent.
    case unknownCommand = "unknown_command"
    /// A frame was not a JSON object of a known kind.
    case malformedFrame = "malformed_frame"
    /// A frame was over the size cap.
    case frameTooLarge = "frame_too_large"
    /// The client speaks another protocol version.
    case protocolMismatch = "protocol_mismatch"
    /// The client sent something before its `hello`, or no `hello` in time.
    case handshakeRequired = "handshake_required"
    /// Over TCP: the client's first line was not `{"kind":"auth","token":"..."}`, or it came
    /// too late or too long. Nothing of the host was sent; the connection is closed.
    case authRequired = "auth_required"
    /// Over TCP: the token in the client's auth frame is not the host's. Nothing of the host
    /// was sent; the connection is closed.
    case authFailed = "auth_failed"
    /// Over TCP: too many connections were waiting to authenticate, and this one, the one that
    /// had waited longest without sending its token, was closed to make room for a newer one.
    /// Nothing of the host was sent. Someone else is connecting to the port; try again.
    case tooManyWaiting = "too_many_waiting"
    /// `addBreakpoint`: this inspector already has as many breakpoints as the agent allows one
    /// inspector (`AgentLimits.maxBreakpointsPerClient`); remove one first.
    case tooManyBreakpoints = "too_many_breakpoints"
    /// `addFault`: this inspector already has as many fault rules as the agent allows one
    /// inspector (`AgentLimits.maxFaultsPerClient`); remove one first.
    case tooManyFaults = "too_many_faults"
    /// The agent already serves its maximum number of clients.
    case tooManyClients = "too_many_clients"
    /// The client sent too many bad frames; the connection is closed.
    case tooManyErrors = "too_many_errors"
    /// The client fell too far behind for too long; the connection is closed.
    case slowConsumer = "slow_consumer"
    /// The host went away while the command was running.
    case hostGone = "host_gone"
    /// Something failed inside the agent.
    case `internal` = "internal"
}
