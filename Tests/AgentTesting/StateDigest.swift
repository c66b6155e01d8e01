import InspectorClient
import InspectorProtocol

/// What two inspector states must share to count as the same: the messages by seq, the pending
/// requests, the slots, `lastError` and the host. Tests that record a session and open it again
/// compare the reopened state with the live one through it.
///
/// ```swift
/// #expect(StateDigest(reopened) == StateDigest(live))
/// ```
public struct StateDigest: Equatable, CustomStringConvertible {
    /// One line per message or malformed record: seq, direction, type, summary, id, status.
    public var messages: [String]
    /// The pending requests.
    public var pending: [WirePending]
    /// The capture slots.
    public var slots: [WireSlot]
    /// The host's `lastError`.
    public var lastError: WireError?
    /// The host.
    public var host: WireHostInfo?

    /// The digest of `state`.
    public init(_ state: LiveState) {
        messages = state.log.filter { $0.kind == .message || $0.kind == .malformed }.map {
            "\($0.seq) \($0.direction?.rawValue ?? "-") \($0.type?.rawValue ?? "malformed") \($0.summary) \($0.correlationId) \($0.status?.rawValue ?? "")"
        }
        pending = state.pending
        slots = state.slots
        lastError = state.lastError
        host = state.host
    }

    public var description: String {
        "\(messages.count) messages, pending \(pending.map(\.correlationId)), slots \(slots.map { "\($0.kind.rawValue):\($0.activeRequest ?? "idle")" })"
    }
}
