import BridgeCore
import Foundation
import Testing

// Helpers shared by the BridgeCore tests. Nothing here sleeps for long: waiting is always a
// bounded poll (`until`), and nothing asserts on elapsed time.

/// A fixed instant (2024-11-22T02:26:40Z) used as the host's clock and as request timestamps.
let fixedDate = Date(timeIntervalSince1970: 1_732_240_000)
/// `fixedDate` in milliseconds, as it appears in `timestamp`.
let fixedMillis: Double = 1_732_240_000_000

/// The text of a request from the journey, as `window.webkit.messageHandlers.gbgBridge.postMessage`
/// would carry it.
func request(_ action: String, id: String, data: [String: JSONValue]? = nil) -> String {
    message(type: .request, action: action, id: id, data: data)
}

/// The text of any message from the journey.
func message(
    type: MessageType, action: String, id: String, data: [String: JSONValue]? = nil,
    status: BridgeResponseStatus? = nil, error: BridgeErrorPayload? = nil
) -> String {
    let value = BridgeMessage(
        correlationId: id, type: type, timestamp: fixedMillis,
        payload: .init(action: action, data: data, status: status, error: error))
    return String(decoding: try! BridgeMessageCodec().encode(value), as: UTF8.self)
}

/// A message's fields as a JSON object, to build deliberately broken variants of it.
func requestObject(_ action: String = "device.info", id: String = "req-1") -> [String: Any] {
    [
        "version": "1.0",
        "correlationId": id,
        "type": "request",
        "timestamp": fixedMillis,
        "payload": ["action": action, "data": [String: Any]()] as [String: Any],
    ]
}

/// JSON text for an arbitrary object (keys sorted).
func jsonText(_ object: Any) -> String {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
}

/// Lets already-scheduled work run (yields and a few 1 ms pauses), for checks that something
/// did NOT happen.
@MainActor
func settle() async {
    for _ in 0..<20 { await Task.yield() }
    for _ in 0..<5 { try? await Task.sleep(nanoseconds: 1_000_000) }
    for _ in 0..<20 { await Task.yield() }
}

/// A host with a fixed clock, attached to a fresh recording transport. Keep the transport: the
/// host holds it weakly, like GBGBridge holds its WebView.
@MainActor
func makeHost(hostVersion: String = "1.0.0") -> (BridgeHost, RecordingJourneyTransport) {
    let host = BridgeHost(hostVersion: hostVersion)
    host.now = { fixedDate }
    let journey = RecordingJourneyTransport()
    host.attach(journey)
    return (host, journey)
}

/// Records every delegate call, in order.
@MainActor
final class RecordingDelegate: BridgeHostDelegate {
    enum Call: Equatable {
        case didReceive(String)
        case unhandled(String)
    }

    var calls: [Call] = []
    var received: [BridgeMessage] = []
    var unhandled: [BridgeMessage] = []
    /// Called from `unhandledRequest`, after recording.
    var onUnhandled: ((BridgeHost, BridgeMessage) -> Void)?

    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) {
        calls.append(.didReceive(message.correlationId))
        received.append(message)
    }

    func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage) {
        calls.append(.unhandled(message.correlationId))
        unhandled.append(message)
        onUnhandled?(host, message)
    }
}

/// Records every change an observer is given. Observers run synchronously on the main actor.
@MainActor
final class ChangeRecorder {
    var changes: [BridgeChange] = []

    func attach(to host: BridgeHost) -> BridgeObservationToken {
        host.addObserver { [self] change in
            MainActor.assumeIsolated { self.changes.append(change) }
        }
    }

    var traffic: [TrafficRecord] {
        changes.compactMap { if case .traffic(let record) = $0 { return record } else { return nil } }
    }
    var malformed: [MalformedInput] {
        changes.compactMap { if case .malformed(let input) = $0 { return input } else { return nil } }
    }
    var lastErrors: [String?] {
        changes.compactMap { if case .lastError(let text, _) = $0 { return .some(text) } else { return nil } }
    }
    var pendingAdded: [String] {
        changes.compactMap { if case .pendingAdded(let pending) = $0 { return pending.message.correlationId } else { return nil } }
    }
    var pendingRemoved: [String] {
        changes.compactMap { if case .pendingRemoved(let id, _) = $0 { return id } else { return nil } }
    }
    var slots: [CaptureSlotState] {
        changes.compactMap { if case .slot(let state) = $0 { return state } else { return nil } }
    }
    var resolutions: [HeldResolution] {
        changes.compactMap { if case .heldResolved(let resolution) = $0 { return resolution } else { return nil } }
    }
}

/// A short name for a change, to compare sequences of changes.
func kind(of change: BridgeChange) -> String {
    switch change {
    case .traffic(let record): return "traffic.\(record.direction.rawValue)"
    case .malformed: return "malformed"
    case .lastError: return "lastError"
    case .pendingAdded: return "pendingAdded"
    case .pendingRemoved: return "pendingRemoved"
    case .slot: return "slot"
    case .customCapabilities: return "customCapabilities"
    case .receivedMessagesCleared: return "receivedMessagesCleared"
    case .journeyAttachment(let attached): return attached ? "journeyAttached" : "journeyDetached"
    case .held(let held): return "held.\(held.direction.rawValue)"
    case .heldResolved(let resolution): return "heldResolved.\(resolution.outcome.rawValue)"
    }
}

/// Decodes bytes the host sent (they must be a valid message).
func decodeSent(_ data: Data) throws -> BridgeMessage {
    try BridgeMessageCodec().decode(data).get()
}

/// A handler made from a closure, for `register(handler:)`.
struct ClosureHandler: BridgeCapabilityHandler {
    let action: String
    let body: @Sendable (BridgeMessage, BridgeResponder) async -> Void

    func handle(request: BridgeMessage, responder: BridgeResponder) async {
        await body(request, responder)
    }
}

/// A main-actor counter a `@Sendable` handler can bump.
@MainActor
final class Counter {
    var value = 0
    var ids: [String] = []
    func hit(_ id: String) {
        value += 1
        ids.append(id)
    }
}

/// An error a transport throws.
struct TransportBroken: Error, CustomStringConvertible {
    var description: String { "the page is gone" }
}
