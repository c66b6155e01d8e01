import BridgeCore

/// A message in one line a person reads on a terminal: what a scripting command sent (or the
/// host answered) without the message's JSON, whose Base64 image alone can be megabytes.
///
/// ```swift
/// SentMessageSummary.line(sent, lead: "completed document slot")
/// // "completed document slot: success, image/png 1280×808 35.6 KB → journey"
/// SentMessageSummary.line(event, lead: "sent " + SentMessageSummary.lead(event))
/// // "sent event host.ping: no data → journey"
/// ```
///
/// The line quotes what the host or the journey chose (actions, ids, error messages, data keys):
/// untrusted text, to be made safe by whoever prints it. Long values are cut to ``maxValueLength``.
public enum SentMessageSummary {
    /// The longest value (an error message, a reason, a data key) quoted whole.
    public static let maxValueLength = 60
    /// How many data keys are named before `…`.
    public static let maxKeys = 4

    /// `lead`, what the message says, and where it goes: `→ journey` for what the host sent
    /// (`direction` `sent`), `→ host` for what was handed to the host as the journey's.
    public static func line(_ message: BridgeMessage, lead: String, direction: TrafficRecord.Direction = .sent) -> String {
        "\(lead): \(outcome(of: message)) \(direction == .sent ? "→ journey" : "→ host")"
    }

    /// What a message is, for a line's lead when the command has nothing more precise to say:
    /// `response to web-3 (device.info)`, `event host.ping`, `request device.info (id inspector-1)`.
    public static func lead(_ message: BridgeMessage) -> String {
        let action = cut(message.payload.action)
        let id = cut(message.correlationId)
        switch message.type {
        case .response: return "response to \(id) (\(action))"
        case .event: return "event \(action)"
        case .request: return "request \(action) (id \(id))"
        }
    }

    /// What a message says, in a few words: a response's status and its data or error
    /// (`success, image/png 1280×808 35.6 KB`, `error PERMISSION_DENIED: Camera access denied`,
    /// `cancelled: User closed the camera`); an event's or a request's data.
    public static func outcome(of message: BridgeMessage) -> String {
        let payload = message.payload
        let data = describe(payload.data)
        guard message.type == .response else { return data }
        let status = payload.status?.rawValue ?? "no status"
        var parts = [status]
        if let error = payload.error {
            let text = error.message.isEmpty ? "" : ": " + cut(error.message)
            // A cancellation's code says nothing its status does not: only the reason is shown.
            let code = payload.status == .cancelled && error.code == BridgeErrorCode.cancelled.rawValue ? "" : " " + cut(error.code)
            parts[0] = status + code + text
        }
        if payload.data != nil { parts.append(data) }
        return parts.joined(separator: ", ")
    }

    /// A payload's data: an image as its type, size and weight (`image/png 1280×808 35.6 KB`),
    /// anything else as its keys (`data {uid, name}`), or `no data`.
    public static func describe(_ data: [String: JSONValue]?) -> String {
        guard let data, !data.isEmpty else { return "no data" }
        if case .string(let base64)? = data["imageBase64"] {
            var parts: [String] = []
            if case .string(let type)? = data["mimeType"] { parts.append(cut(type)) }
            if case .number(let width)? = data["imageWidth"], case .number(let height)? = data["imageHeight"],
                let w = Int(exactly: width), let h = Int(exactly: height)
            {
                parts.append("\(w)×\(h)")
            }
            parts.append(TimeFormat.bytes(decodedLength(ofBase64: base64)))
            return parts.joined(separator: " ")
        }
        let keys = data.keys.sorted()
        let named = keys.prefix(maxKeys).map(cut)
        return "data {" + named.joined(separator: ", ") + (keys.count > maxKeys ? ", …" : "") + "}"
    }

    /// How many bytes `base64` decodes to (without decoding it).
    static func decodedLength(ofBase64 base64: String) -> Int {
        let count = base64.utf8.count
        let padding = base64.utf8.reversed().prefix(2).prefix { $0 == UInt8(ascii: "=") }.count
        return max(0, count / 4 * 3 - padding)
    }

    /// `text`, or its first ``maxValueLength`` characters and `…`.
    static func cut(_ text: String) -> String {
        text.count > maxValueLength ? String(text.prefix(maxValueLength)) + "…" : text
    }
}
