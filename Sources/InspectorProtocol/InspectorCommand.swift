import BridgeCore
import Foundation

/// A command a client asks the agent to carry out through the host's public API.
///
/// On the wire: `{"kind":"command","id":"c1","command":"respond","args":{...}}`; the agent answers
/// with a `reply` carrying the same `id`.
///
/// ```swift
/// let frame = try InspectorCommand.respond(.init(correlationId: "req-1", status: .success, data: ["ok": true]))
///     .frame(id: "c1")
/// ```
public enum InspectorCommand: Sendable, Hashable {
    /// Answer a request waiting in `pendingRequests`.
    case respond(Respond)
    /// Send a host event to the journey.
    case sendEvent(SendEvent)
    /// Complete a capture slot's active request with a result.
    case completeSlot(CompleteSlot)
    /// Cancel a capture slot's active request.
    case cancelSlot(CancelSlot)
    /// Enable or disable a capture slot.
    case setSlotEnabled(SetSlotEnabled)
    /// Set a capture slot's permission state.
    case setSlotPermission(SetSlotPermission)
    /// Clear `lastError`.
    case clearError
    /// Clear the message log (the host's `receivedMessages` and the agent's log).
    case clearLog
    /// Hold matching messages in flight until someone releases, answers or drops them.
    case addBreakpoint(AddBreakpoint)
    /// Remove one of this client's breakpoints (what it holds is released).
    case removeBreakpoint(RemoveBreakpoint)
    /// Let a held message go on, as it was or edited.
    case release(Release)
    /// Answer a held request by hand; its handler never runs.
    case answer(Answer)
    /// Drop a held message: it is never routed or delivered.
    case drop(Drop)
    /// Hand the host a message as if the journey had sent it.
    case inject(Inject)
    /// Detach or re-attach the journey's web view, or reload its page (a lifecycle step).
    case journey(Journey)
    /// Make the host's real handling of matching messages go wrong on purpose (a fault rule).
    case addFault(WireFaultRule)
    /// Remove one of this client's fault rules.
    case removeFault(RemoveFault)
    /// Send a fresh snapshot (to resynchronise).
    case snapshot
    /// Check the connection; the result is `{}`.
    case ping

    /// Arguments of `respond`.
    public struct Respond: Codable, Sendable, Hashable {
        /// The pending request's correlation id.
        public var correlationId: String
        /// The response status.
        public var status: BridgeResponseStatus
        /// Optional response data.
        public var data: [String: JSONValue]?
        /// Optional error object.
        public var error: BridgeErrorPayload?
        /// The reply rule answering with this response, if any: the response is then marked in
        /// everyone's log as answered by that rule.
        public var rule: String?

        /// Creates the arguments.
        public init(
            correlationId: String, status: BridgeResponseStatus, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil,
            rule: String? = nil
        ) {
            self.correlationId = correlationId
            self.status = status
            self.data = data
            self.error = error
            self.rule = rule
        }
    }

    /// How a response's status and error can disagree in a way that would confuse the journey.
    public enum StatusErrorMismatch: Sendable, Equatable {
        /// An `error` response without an error object: the journey cannot tell what went wrong.
        case errorWithoutCode
        /// A `success` response that carries an error object.
        case successWithError
    }

    /// What is wrong with a response of `status` carrying `error`, or `nil` when they agree: an
    /// `error` response must say what went wrong (an error code), and a `success` response
    /// carries no error. `cancelled` and `unsupported` may carry one or not.
    ///
    /// The one rule the scripting commands and the inspector's dialogs apply before anything is
    /// sent; each words the refusal for its own controls.
    public static func statusErrorMismatch(status: BridgeResponseStatus, error: BridgeErrorPayload?) -> StatusErrorMismatch? {
        switch (status, error) {
        case (.error, nil): return .errorWithoutCode
        case (.success, .some): return .successWithError
        default: return nil
        }
    }

    /// Arguments of `sendEvent`.
    public struct SendEvent: Codable, Sendable, Hashable {
        /// The event's action, such as `host.ping`.
        public var name: String
        /// Optional event data. `host.ready` without data is sent as the host sends it itself,
        /// with its own `timestamp` and `version` (``BridgeCore/BridgeHost/sendReadyEvent()``);
        /// with data, exactly as given (a `host.ready` without `version`, say).
        public var data: [String: JSONValue]?

        /// Creates the arguments.
        public init(name: String, data: [String: JSONValue]? = nil) {
            self.name = name
            self.data = data
        }
    }

    /// The result to complete a slot with.
    public enum SlotResult: Codable, Sendable, Hashable {
        /// A captured image: given as base64, or made by the agent (a real PNG of the given size) when `imageBase64` is nil.
        case success(imageBase64: String?, width: Int, height: Int, mimeType: String?)
        /// A failure with an error object.
        case error(BridgeErrorPayload)
        /// A cancellation with a reason.
        case cancelled(reason: String)

        enum CodingKeys: String, CodingKey { case type, imageBase64, width, height, mimeType, error, reason }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .type) {
            case "success":
                self = .success(
                    imageBase64: try container.decodeIfPresent(String.self, forKey: .imageBase64),
                    width: try container.decode(Int.self, forKey: .width),
                    height: try container.decode(Int.self, forKey: .height),
                    mimeType: try container.decodeIfPresent(String.self, forKey: .mimeType))
            case "error":
                self = .error(try container.decode(BridgeErrorPayload.self, forKey: .error))
            case "cancelled":
                self = .cancelled(reason: try container.decode(String.self, forKey: .reason))
            case let other:
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: container,
                    debugDescription: "result type must be \"success\", \"error\" or \"cancelled\" (got \"\(other)\")")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .success(let imageBase64, let width, let height, let mimeType):
                try container.encode("success", forKey: .type)
                try container.encodeIfPresent(imageBase64, forKey: .imageBase64)
                try container.encode(width, forKey: .width)
                try container.encode(height, forKey: .height)
                try container.encodeIfPresent(mimeType, forKey: .mimeType)
            case .error(let error):
                try container.encode("error", forKey: .type)
                try container.encode(error, forKey: .error)
            case .cancelled(let reason):
                try container.encode("cancelled", forKey: .type)
                try container.encode(reason, forKey: .reason)
            }
        }
    }

    /// Arguments of `completeSlot`.
    public struct CompleteSlot: Codable, Sendable, Hashable {
        /// `document` or `selfie`.
        public var slot: CaptureCapability.Kind
        /// The result to send.
        public var result: SlotResult

        /// Creates the arguments.
        public init(slot: CaptureCapability.Kind, result: SlotResult) {
            self.slot = slot
            self.result = result
        }
    }

    /// Arguments of `cancelSlot`.
    public struct CancelSlot: Codable, Sendable, Hashable {
        /// `document` or `selfie`.
        public var slot: CaptureCapability.Kind
        /// The reason sent to the journey (default "Cancelled from the inspector").
        public var reason: String?

        /// Creates the arguments.
        public init(slot: CaptureCapability.Kind, reason: String? = nil) {
            self.slot = slot
            self.reason = reason
        }
    }

    /// Arguments of `setSlotEnabled`.
    public struct SetSlotEnabled: Codable, Sendable, Hashable {
        /// `document` or `selfie`.
        public var slot: CaptureCapability.Kind
        /// The new state.
        public var enabled: Bool

        /// Creates the arguments.
        public init(slot: CaptureCapability.Kind, enabled: Bool) {
            self.slot = slot
            self.enabled = enabled
        }
    }

    /// Arguments of `setSlotPermission`.
    public struct SetSlotPermission: Codable, Sendable, Hashable {
        /// `document` or `selfie`.
        public var slot: CaptureCapability.Kind
        /// The new permission state.
        public var permissionState: PermissionState

        /// Creates the arguments.
        public init(slot: CaptureCapability.Kind, permissionState: PermissionState) {
            self.slot = slot
            self.permissionState = permissionState
        }
    }

    /// Arguments of `addBreakpoint`.
    public struct AddBreakpoint: Codable, Sendable, Hashable {
        /// A filter in the log filter's language, such as `action:camera.document.capture dir:in`.
        public var filter: String
        /// How long a message may stay held before it is released as it is (default
        /// ``InspectorCommand/defaultHoldSeconds``, at most ``InspectorCommand/maxHoldSeconds``).
        public var holdSeconds: Double?

        /// Creates the arguments.
        public init(filter: String, holdSeconds: Double? = nil) {
            self.filter = filter
            self.holdSeconds = holdSeconds
        }
    }

    /// How long a message stays held when its breakpoint does not say: long enough to read and
    /// edit it, short enough that a forgotten hold does not hang a journey for long. (The web
    /// SDK gives up on a request after 30 seconds anyway.)
    public static let defaultHoldSeconds = 60.0
    /// The longest hold a breakpoint may ask for.
    public static let maxHoldSeconds = 3600.0

    /// Arguments of `removeFault`.
    public struct RemoveFault: Codable, Sendable, Hashable {
        /// The fault rule's id, such as `f1`.
        public var id: String

        /// Creates the arguments.
        public init(id: String) { self.id = id }
    }

    /// Arguments of `removeBreakpoint`.
    public struct RemoveBreakpoint: Codable, Sendable, Hashable {
        /// The breakpoint's id, such as `b1`.
        public var id: String

        /// Creates the arguments.
        public init(id: String) { self.id = id }
    }

    /// Arguments of `release`.
    public struct Release: Codable, Sendable, Hashable {
        /// The hold's id, such as `h1`.
        public var id: String
        /// The message to let go on instead: the held one edited. It must keep the held
        /// message's correlation id, type and action.
        public var message: BridgeMessage?

        /// Creates the arguments.
        public init(id: String, message: BridgeMessage? = nil) {
            self.id = id
            self.message = message
        }
    }

    /// Arguments of `answer`.
    public struct Answer: Codable, Sendable, Hashable {
        /// The hold's id, such as `h1`.
        public var id: String
        /// The response status.
        public var status: BridgeResponseStatus
        /// Optional response data.
        public var data: [String: JSONValue]?
        /// Optional error object.
        public var error: BridgeErrorPayload?

        /// Creates the arguments.
        public init(id: String, status: BridgeResponseStatus, data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil) {
            self.id = id
            self.status = status
            self.data = data
            self.error = error
        }
    }

    /// Arguments of `drop`.
    public struct Drop: Codable, Sendable, Hashable {
        /// The hold's id, such as `h1`.
        public var id: String

        /// Creates the arguments.
        public init(id: String) { self.id = id }
    }

    /// Arguments of `inject`: exactly one of `message` (a whole bridge message) or `raw` (any
    /// text, to see how the host takes input that does not decode).
    public struct Inject: Codable, Sendable, Hashable {
        /// The message, as the journey would post it.
        public var message: BridgeMessage?
        /// Text handed to the host as it is.
        public var raw: String?

        /// Creates the arguments.
        public init(message: BridgeMessage? = nil, raw: String? = nil) {
            self.message = message
            self.raw = raw
        }
    }

    /// Arguments of `journey`: one lifecycle step done to the journey's web view.
    public struct Journey: Codable, Sendable, Hashable {
        /// What to do.
        public var step: JourneyStep

        /// Creates the arguments.
        public init(step: JourneyStep) { self.step = step }
    }

    /// The command's wire name.
    public var name: String {
        switch self {
        case .respond: return "respond"
        case .sendEvent: return "sendEvent"
        case .completeSlot: return "completeSlot"
        case .cancelSlot: return "cancelSlot"
        case .setSlotEnabled: return "setSlotEnabled"
        case .setSlotPermission: return "setSlotPermission"
        case .addBreakpoint: return "addBreakpoint"
        case .removeBreakpoint: return "removeBreakpoint"
        case .release: return "release"
        case .answer: return "answer"
        case .drop: return "drop"
        case .inject: return "inject"
        case .journey: return "journey"
        case .addFault: return "addFault"
        case .removeFault: return "removeFault"
        case .clearError: return "clearError"
        case .clearLog: return "clearLog"
        case .snapshot: return "snapshot"
        case .ping: return "ping"
        }
    }

    /// Every command name this protocol version knows.
    public static let names = [
        "respond", "sendEvent", "completeSlot", "cancelSlot", "setSlotEnabled", "setSlotPermission", "addBreakpoint",
        "removeBreakpoint", "release", "answer", "drop", "inject", "journey", "addFault", "removeFault", "clearError", "clearLog",
        "snapshot", "ping",
    ]

    /// The complete frame for this command, ending in a newline: the arguments are encoded
    /// once, straight into the frame.
    public func frame(id: String) throws -> Data {
        func frame(_ args: (some Encodable)?) throws -> Data {
            try JSONEncoding.encode(TypedCommandFrame(id: id, command: name, args: args))
        }
        var data: Data
        switch self {
        case .respond(let args): data = try frame(args)
        case .sendEvent(let args): data = try frame(args)
        case .completeSlot(let args): data = try frame(args)
        case .cancelSlot(let args): data = try frame(args)
        case .setSlotEnabled(let args): data = try frame(args)
        case .setSlotPermission(let args): data = try frame(args)
        case .addBreakpoint(let args): data = try frame(args)
        case .removeBreakpoint(let args): data = try frame(args)
        case .release(let args): data = try frame(args)
        case .answer(let args): data = try frame(args)
        case .drop(let args): data = try frame(args)
        case .inject(let args): data = try frame(args)
        case .journey(let args): data = try frame(args)
        case .addFault(let args): data = try frame(args)
        case .removeFault(let args): data = try frame(args)
        case .clearError, .clearLog, .snapshot, .ping: data = try frame(JSONValue?.none)
        }
        data.append(0x0A)
        return data
    }

    /// A command frame with its arguments as they are, for encoding (``CommandFrame`` holds them
    /// as a ``BridgeCore/JSONValue``, as an agent reads them).
    private struct TypedCommandFrame<Args: Encodable>: Encodable {
        var kind = FrameKind.command
        var id: String
        var command: String
        var args: Args?
    }

    /// Decodes a command from its name and arguments, or says what is wrong with them.
    public static func decode(name: String, args: JSONValue?) -> Result<InspectorCommand, InspectorError> {
        func arguments<T: Decodable>(_ type: T.Type) throws(JSONDecoding.Failure) -> T {
            try JSONDecoding.decode(T.self, from: args ?? .object([:]))
        }
        do throws(JSONDecoding.Failure) {
            switch name {
            case "respond": return .success(.respond(try arguments(Respond.self)))
            case "sendEvent": return .success(.sendEvent(try arguments(SendEvent.self)))
            case "completeSlot": return .success(.completeSlot(try arguments(CompleteSlot.self)))
            case "cancelSlot": return .success(.cancelSlot(try arguments(CancelSlot.self)))
            case "setSlotEnabled": return .success(.setSlotEnabled(try arguments(SetSlotEnabled.self)))
            case "setSlotPermission": return .success(.setSlotPermission(try arguments(SetSlotPermission.self)))
            case "addBreakpoint": return .success(.addBreakpoint(try arguments(AddBreakpoint.self)))
            case "removeBreakpoint": return .success(.removeBreakpoint(try arguments(RemoveBreakpoint.self)))
            case "release": return .success(.release(try arguments(Release.self)))
            case "answer": return .success(.answer(try arguments(Answer.self)))
            case "drop": return .success(.drop(try arguments(Drop.self)))
            case "inject": return .success(.inject(try arguments(Inject.self)))
            case "journey": return .success(.journey(try arguments(Journey.self)))
            case "addFault": return .success(.addFault(try arguments(WireFaultRule.self)))
            case "removeFault": return .success(.removeFault(try arguments(RemoveFault.self)))
            case "clearError": return .success(.clearError)
            case "clearLog": return .success(.clearLog)
            case "snapshot": return .success(.snapshot)
            case "ping": return .success(.ping)
            default:
                return .failure(
                    InspectorError(
                        .unknownCommand,
                        "unknown command '\(name)'; known commands: \(names.joined(separator: ", "))"))
            }
        } catch {
            return .failure(InspectorError(.invalidArguments, "arguments of '\(name)': \(error)"))
        }
    }
}

/// The envelope of a command frame.
public struct CommandFrame: Codable, Sendable {
    /// Always `command`.
    public var kind: FrameKind
    /// The client's id for the command, echoed in the reply.
    public var id: String
    /// The command name.
    public var command: String
    /// The command's arguments.
    public var args: JSONValue?

    /// Creates an envelope.
    public init(kind: FrameKind, id: String, command: String, args: JSONValue?) {
        self.kind = kind
        self.id = id
        self.command = command
        self.args = args
    }
}
