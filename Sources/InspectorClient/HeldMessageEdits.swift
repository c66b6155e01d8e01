import BridgeCore
import Foundation
import InspectorProtocol

/// Messages an inspector makes from others: a held message edited before it is released, a
/// logged journey message replayed, and a new message to inject as the journey would post it.
///
/// Shared by the scripting commands (`release --data`, `replay`, `inject`) and the interactive
/// inspector, so both build the same messages.
extension BridgeMessage {
    /// The correlation id an injected message gets when none is given: `inspector-<uuid>`,
    /// unique, and plainly made by an inspector when it shows in a log.
    public static func injectedCorrelationId() -> String {
        "inspector-" + UUID().uuidString.lowercased()
    }

    /// The correlation id a replayed message gets unless the original's is kept:
    /// `<original>-replay-<suffix>` (4 random hex digits unless a test gives its own), so the
    /// log shows what it replays.
    public static func replayCorrelationId(for original: String, suffix: String = randomReplaySuffix()) -> String {
        original + "-replay-" + suffix
    }

    /// Four random hex digits, for ``replayCorrelationId(for:suffix:)``.
    public static func randomReplaySuffix() -> String {
        String(format: "%04x", UInt16.random(in: .min ... .max))
    }

    /// This message to hand the host again (``InspectorCommand/inject(_:)``): a new correlation
    /// id (``replayCorrelationId(for:suffix:)``) unless `keepingId`, and a timestamp of `now`;
    /// the rest (version, type, payload) exactly as it was logged.
    public func replayed(keepingId: Bool = false, now: Date = Date(), suffix: String = randomReplaySuffix()) -> BridgeMessage {
        var copy = self
        if !keepingId { copy.correlationId = Self.replayCorrelationId(for: correlationId, suffix: suffix) }
        copy.timestamp = (now.timeIntervalSince1970 * 1000).rounded()
        return copy
    }

    /// The message a person typed as JSON (a whole held message, edited), or a sentence saying
    /// what is wrong with it. The agent then checks that its correlationId, type and action are
    /// unchanged.
    public static func edited(fromJSON text: String) -> Result<BridgeMessage, HeldMessageEditError> {
        BridgeMessageCodec().decode(Data(text.utf8)).mapError { HeldMessageEditError(message: $0.reason) }
    }

    /// The changes an inspector can make to a held message before releasing it. The agent
    /// refuses an edit that changes the correlation id, the type or the action, so none of those
    /// can be changed here.
    public struct Edit: Sendable, Hashable {
        /// The new `payload.data` (`nil`: keep the held message's).
        public var data: [String: JSONValue]?
        /// For a response: the new status (`nil`: keep it).
        public var status: BridgeResponseStatus?
        /// For a response: the new error (`nil`: keep the held one, unless `status` becomes
        /// `success`, which carries none).
        public var error: BridgeErrorPayload?

        /// Creates an edit.
        public init(data: [String: JSONValue]? = nil, status: BridgeResponseStatus? = nil, error: BridgeErrorPayload? = nil) {
            self.data = data
            self.status = status
            self.error = error
        }

        /// Whether the edit changes nothing.
        public var isEmpty: Bool { data == nil && status == nil && error == nil }
    }

    /// Why an ``Edit`` cannot apply to a message.
    public enum EditProblem: Error, Sendable, Equatable, CustomStringConvertible {
        /// A status or error given for a request or an event, which carry neither.
        case notAResponse(MessageType)
        /// The edited response's status and error disagree.
        case statusError(InspectorCommand.StatusErrorMismatch)

        /// What went wrong, for a person.
        public var description: String {
            switch self {
            case .notAResponse(let type):
                return "only a response has a status and an error; this is \(type == .event ? "an event" : "a request"), so only its data can change"
            case .statusError(.errorWithoutCode):
                return "an error response needs an error code"
            case .statusError(.successWithError):
                return "a success response carries no error"
            }
        }
    }

    /// This message with `edit` applied: the message a `release` with an edit sends the agent.
    /// Its correlation id, type, action, version and timestamp stay as they were. A success
    /// turned into an error, cancellation or unsupported loses its data unless `edit.data` gives
    /// some.
    public func applying(_ edit: Edit) -> Result<BridgeMessage, EditProblem> {
        var copy = self
        if let data = edit.data { copy.payload.data = data }
        if edit.status != nil || edit.error != nil {
            guard type == .response else { return .failure(.notAResponse(type)) }
            let status = edit.status ?? payload.status ?? .success
            let error = edit.error ?? (status == .success ? nil : payload.error)
            if let mismatch = InspectorCommand.statusErrorMismatch(status: status, error: error) {
                return .failure(.statusError(mismatch))
            }
            // A success's data does not belong in a failure (a failed capture has no image):
            // turning a success into anything else drops it, unless new data is given.
            if edit.data == nil, payload.status == .success || payload.status == nil, status != .success {
                copy.payload.data = nil
            }
            copy.payload.status = status
            copy.payload.error = error
        }
        return .success(copy)
    }
}

/// Why edited text is not a message that can be sent.
public struct HeldMessageEditError: Error, Equatable, Sendable {
    /// What is wrong, for a person.
    public var message: String
}
