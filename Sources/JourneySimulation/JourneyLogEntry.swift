import BridgeCore
import Foundation

/// One line of a journey log: something the simulated journey sent, received, gave up on or noted.
///
/// Written as one JSON object per line (JSON Lines), keys in this order:
///
/// ```json
/// {"time":"2025-01-01T12:00:00.123Z","kind":"sent","label":"caps","message":{...}}
/// {"time":"2025-01-01T12:00:00.125Z","kind":"received","label":"caps","latencyMs":2,"message":{...}}
/// {"time":"2025-01-01T12:00:05.000Z","kind":"timeout","label":"selfie","correlationId":"web-1a2b-3","timeoutMs":5000,"text":"...","message":{...}}
/// {"time":"2025-01-01T12:00:05.001Z","kind":"sent","raw":"{\"version\": \"1.0\""}
/// {"time":"2025-01-01T12:00:05.002Z","kind":"note","text":"scenario \"demo\" started"}
/// ```
public struct JourneyLogEntry: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The journey received a message from the host.
        case received
        /// The journey sent a message (or raw text) to the host.
        case sent
        /// A request got no response in time; the journey gave up on it, as the web SDK does.
        case timeout
        /// Anything else worth knowing: the scenario started or ended, a late or unexpected message.
        case note
    }

    /// When it happened.
    public var time: Date
    /// What happened.
    public var kind: Kind
    /// The message sent, received or timed out, if there is one.
    public var message: BridgeMessage?
    /// The message's exact JSON text, as it crossed the bridge.
    public var json: String?
    /// For `sendRaw`: the exact text sent.
    public var raw: String?
    /// The scenario label of the request concerned, if it has one.
    public var label: String?
    /// For received responses: milliseconds since the request was sent.
    public var latencyMs: Int?
    /// For timeouts: the timeout that passed, in milliseconds.
    public var timeoutMs: Int?
    /// For notes and timeouts: a sentence for a person.
    public var text: String?

    /// Creates an entry.
    public init(
        time: Date, kind: Kind, message: BridgeMessage? = nil, json: String? = nil, raw: String? = nil,
        label: String? = nil, latencyMs: Int? = nil, timeoutMs: Int? = nil, text: String? = nil
    ) {
        self.time = time
        self.kind = kind
        self.message = message
        self.json = json
        self.raw = raw
        self.label = label
        self.latencyMs = latencyMs
        self.timeoutMs = timeoutMs
        self.text = text
    }

    /// The correlation id of the message concerned, if any.
    public var correlationId: String? { message?.correlationId }

    /// The entry as one line of JSON (without the newline). `message` is the exact JSON that
    /// crossed the bridge, so the log shows what the web side really saw.
    public var jsonLine: String {
        var line = "{\"time\":" + Self.quote(Self.timeText(time)) + ",\"kind\":" + Self.quote(kind.rawValue)
        if let label { line += ",\"label\":" + Self.quote(label) }
        if let message {
            line += ",\"correlationId\":" + Self.quote(message.correlationId)
            line += ",\"action\":" + Self.quote(message.payload.action)
        }
        if let latencyMs { line += ",\"latencyMs\":\(latencyMs)" }
        if let timeoutMs { line += ",\"timeoutMs\":\(timeoutMs)" }
        if let text { line += ",\"text\":" + Self.quote(text) }
        if let raw { line += ",\"raw\":" + Self.quote(raw) }
        if let json, JSONSyntaxCheck.firstProblem(in: json) == nil {
            line += ",\"message\":" + json
        } else if let json {
            line += ",\"messageText\":" + Self.quote(json)
        }
        return line + "}"
    }

    /// `2025-01-01T12:00:00.123Z`.
    static func timeText(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `text` as a JSON string literal.
    static func quote(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{2028}": result += "\\u2028"
            case "\u{2029}": result += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
