import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol

/// Traffic records for the client's tests, built as an agent would send them.
enum Fixture {
    static func message(
        _ id: String, _ type: MessageType, _ action: String, at time: Double, data: [String: JSONValue]? = nil,
        status: BridgeResponseStatus? = nil, error: BridgeErrorPayload? = nil
    ) -> BridgeMessage {
        BridgeMessage(correlationId: id, type: type, timestamp: time, payload: .init(action: action, data: data, status: status, error: error))
    }

    static func traffic(
        seq: Int, _ direction: TrafficRecord.Direction, _ message: BridgeMessage, at time: Double, origin: MessageOrigin? = nil,
        deliveryError: String? = nil
    ) -> WireTraffic {
        let bytes = (try? BridgeMessageCodec().encode(message).count) ?? 0
        return WireTraffic(
            seq: seq, direction: direction, time: time, origin: origin ?? (direction == .received ? .journey : .host),
            deliveryError: deliveryError, bytes: bytes, message: message)
    }

    /// A request from the journey.
    static func request(seq: Int, id: String, action: String, at time: Double, data: [String: JSONValue]? = nil) -> WireTraffic {
        traffic(seq: seq, .received, message(id, .request, action, at: time, data: data), at: time)
    }

    /// A response to the journey.
    static func response(
        seq: Int, id: String, action: String, at time: Double, status: BridgeResponseStatus = .success,
        data: [String: JSONValue]? = nil, error: BridgeErrorPayload? = nil, origin: MessageOrigin = .host
    ) -> WireTraffic {
        traffic(seq: seq, .sent, message(id, .response, action, at: time, data: data, status: status, error: error), at: time, origin: origin)
    }

    /// An event sent to the journey.
    static func hostEvent(seq: Int, id: String, name: String, at time: Double, data: [String: JSONValue]? = nil, origin: MessageOrigin = .host) -> WireTraffic {
        traffic(seq: seq, .sent, message(id, .event, name, at: time, data: data), at: time, origin: origin)
    }
}
