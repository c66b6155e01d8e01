import BridgeCore
import Foundation

/// Builds the messages an inspector sends for a held message or a replay: a held message's
/// JSON edited by a person (sent back with `release`), and a logged journey message sent again
/// with `inject` under a new correlation id.
public enum HeldMessageEdits {
    /// The message in `text` (a whole BridgeMessage as JSON), or a sentence saying what is wrong
    /// with it. The agent checks that correlationId, type and action are unchanged.
    public static func message(fromJSON text: String) -> Result<BridgeMessage, HeldMessageEditError> {
        BridgeMessageCodec().decode(Data(text.utf8)).mapError { HeldMessageEditError(message: $0.reason) }
    }

    /// The id a replay gets: `<old>-replay-<suffix>` (`suffix` is 4 hex digits by default).
    public static func replayId(of id: String, suffix: String = randomSuffix()) -> String {
        "\(id)-replay-\(suffix)"
    }

    /// Four random hex digits.
    public static func randomSuffix() -> String {
        String(format: "%04x", UInt16.random(in: .min ... .max))
    }

    /// The logged message `json` as it is sent again: with a new correlation id unless
    /// `keepingId`, and `timestamp` (milliseconds since 1970) as its time; `nil` when `json` is
    /// not a BridgeMessage.
    public static func replay(_ json: Data, keepingId: Bool, timestamp: Double, suffix: String = randomSuffix()) -> BridgeMessage? {
        guard case .success(var message) = BridgeMessageCodec().decode(json) else { return nil }
        if !keepingId { message.correlationId = replayId(of: message.correlationId, suffix: suffix) }
        message.timestamp = timestamp.rounded()
        return message
    }
}

/// Why edited text is not a message that can be sent.
public struct HeldMessageEditError: Error, Equatable, Sendable {
    /// What is wrong, for a person.
    public var message: String
}
