import BridgeCore
import InspectorProtocol

/// Traffic records built as an agent sends them, for the tests of everything that reads them
/// (the client's log and filters, the TUI's panes).
///
/// ```swift
/// let rows = [TrafficFixture.request(seq: 1, id: "r1", action: "nfc.read", at: 0)]
/// ```
public enum TrafficFixture {
    /// A message with `action` in its payload.
    public static func message(
        _ id: String, _ type: MessageType, _ action: String, at time: Double, data: [String: JSONValue]? = nil,
        status: BridgeResponseStatus? = nil, error: BridgeErrorPayload? = nil
    ) -> BridgeMessage {
        BridgeMessage(correlationId: id, type: type, timestamp: time, payload: .init(action: action, data: data, status: status, error: error))
    }

    /// `message` as it crossed the bridge at `time`, with its encoded size.
    public static func traffic(
        seq: Int, _ direction: TrafficRecord.Direction, _ message: BridgeMessage, at time: Double, origin: MessageOrigin? = nil,
        deliveryError: String? = nil
    ) -> WireTraffic {
        let bytes = (try? BridgeMessageCodec().encode(message).count) ?? 0
        return WireTraffic(
            seq: seq, direction: direction, time: time, origin: origin ?? (direction == .received ? .journey : .host),
            deliveryError: deliveryError, bytes: bytes, message: message)
    }

    /// A request from the journey.
    public static func request(seq: Int, id: String, action: String, at time: Double, data: [String: JSONValue]? = nil) -> WireTraffic {
        traffic(seq: seq, .received, message(id, .request, action, at: time, data: data), at: time)
    }

    /// A response to the journey.
    public static func response(
        seq: Int, id: String, action: String, at time: Double, status: BridgeResponseStatus = .success,
        data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil, origin: MessageOrigin = .host
    ) -> WireTraffic {
        traffic(seq: seq, .sent, message(id, .response, action, at: time, data: data, status: status, error: error), at: time, origin: origin)
    }

    /// An event sent to the journey.
    public static func hostEvent(
        seq: Int, id: String, name: String, at time: Double, data: [String: JSONValue]? = nil, origin: MessageOrigin = .host
    ) -> WireTraffic {
        traffic(seq: seq, .sent, message(id, .event, name, at: time, data: data), at: time, origin: origin)
    }
}
