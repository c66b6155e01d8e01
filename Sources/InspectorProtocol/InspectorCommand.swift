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
        /// Optional event data.
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

    /// The command's wire name.
    public var name: String {
        switch self {
        case .respond: return "respond"
        case .sendEvent: return "sendEvent"
        case .completeSlot: return "completeSlot"
        case .cancelSlot: return "cancelSlot"
        case .setSlotEnabled: return "setSlotEnabled"
        case .setSlotPermission: return "setSlotPermission"
        case .clearError: return "clearError"
        case .clearLog: return "clearLog"
        case .snapshot: return "snapshot"
        case .ping: return "ping"
        }
    }

    /// Every command name this protocol version knows.
    public static let names = [
        "respond", "sendEvent", "completeSlot", "cancelSlot", "setSlotEnabled", "setSlotPermission", "clearError",
        "clearLog", "snapshot", "ping",
    ]

    /// The complete frame for this command, ending in a newline: the arguments are encoded
    /// once, straight into the frame.
    public func frame(id: String) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func frame(_ args: (some Encodable)?) throws -> Data {
            try encoder.encode(TypedCommandFrame(id: id, command: name, args: args))
        }
        var data: Data
        switch self {
        case .respond(let args): data = try frame(args)
        case .sendEvent(let args): data = try frame(args)
        case .completeSlot(let args): data = try frame(args)
        case .cancelSlot(let args): data = try frame(args)
        case .setSlotEnabled(let args): data = try frame(args)
        case .setSlotPermission(let args): data = try frame(args)
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
