import Foundation
import InspectorClient
import InspectorProtocol
import Testing

/// Malformed input that names its `correlationId` shows it in the log's id column; the id is read
/// once, when the row is made, not on every frame drawn.
@Suite("Malformed input's correlation id, read when the row is made")
struct MalformedCorrelationIdTests {
    static func entry(_ raw: String) -> LogEntry {
        LogEntry(WireMalformed(seq: 1, time: 0, raw: raw, bytes: raw.utf8.count, reason: "missing required field 'payload.action'"))
    }

    @Test("An object with a non-empty string correlationId names it; anything else names none")
    func readOnce() {
        #expect(Self.entry(#"{"version":"1.0","correlationId":"nfc-1"}"#).malformedCorrelationId == "nfc-1")
        #expect(Self.entry(#"{"correlationId":""}"#).malformedCorrelationId == nil)
        #expect(Self.entry(#"{"correlationId":7}"#).malformedCorrelationId == nil)
        #expect(Self.entry(#"["correlationId","x"]"#).malformedCorrelationId == nil)
        #expect(Self.entry("not json").malformedCorrelationId == nil)
        let padding = String(repeating: " ", count: LogEntry.maxParsedMalformedBytes)
        #expect(Self.entry(#"{"correlationId":"big"}"# + padding).malformedCorrelationId == nil)
    }
}
