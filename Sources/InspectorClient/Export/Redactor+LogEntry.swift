import BridgeCore
import Foundation
import InspectorProtocol

/// Redacting an inspector's message log before it leaves the machine (`export --har`).
extension Redactor {
    /// `log` with each message's JSON redacted (named fields, images, base64) and each
    /// malformed input's text redacted as text (and as JSON where it parses). A row with nothing
    /// to redact keeps its exact bytes; ``LogEntry/bytes`` keeps the size the message had when
    /// it crossed the bridge.
    public mutating func redact(log: [LogEntry]) -> [LogEntry] {
        log.map { entry in
            var row = entry
            row.json = redact(messageJSON: entry.json)
            row.original = entry.original.map { redact(messageJSON: $0) }
            row.reported = entry.reported.map { redact(messageJSON: $0) }
            return row
        }
    }

    /// A message's JSON text (or any text) redacted: JSON as a value, written again only when
    /// something was replaced; other text as text.
    public mutating func redact(messageJSON data: Data) -> Data {
        guard !data.isEmpty else { return data }
        guard let value = JSONParser.parse(data) else {
            let text = String(decoding: data, as: UTF8.self)
            let redacted = redact(text: text)
            return redacted == text ? data : Data(redacted.utf8)
        }
        let before = report
        let redacted = walk(value, stringNesting: 0, looseMessage: true)
        guard report != before else { return data }
        var writer = JSONWriter(capacity: data.count)
        writer.value(redacted)
        return writer.data
    }
}
