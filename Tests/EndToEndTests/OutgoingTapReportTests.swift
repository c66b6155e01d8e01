import GBGBridgeInspector
import Testing

/// Decoding what the page script posts to `window.webkit.messageHandlers.gbgBridgeInspector`:
/// every body is untrusted (any script in the web view may post), so nothing traps.
@Suite("Outgoing tap reports")
struct OutgoingTapReportTests {
    @Test("the script's envelopes, as strings")
    func envelopes() {
        #expect(OutgoingTapReport(body: #"{"kind":"sent","json":"{\"a\":\"\\u2028 </script> é\"}"}"#)
            == .sent(json: #"{"a":"\u2028 </script> é"}"#))
        #expect(OutgoingTapReport(body: #"{"kind":"page","url":"https://journey.example/?x=1"}"#) == .page(url: "https://journey.example/?x=1"))
        #expect(OutgoingTapReport(body: #"{"kind":"unreportable","reason":"cyclic"}"#) == .unreportable(reason: "cyclic"))
        #expect(OutgoingTapReport(body: #"{"kind":"blind","reason":"frozen"}"#) == .blind(reason: "frozen"))
        // A lone surrogate arrives escaped (JSON.stringify is well-formed): the text is kept as is.
        #expect(OutgoingTapReport(body: #"{"kind":"sent","json":"\"\\ud800\""}"#) == .sent(json: #""\ud800""#))
    }

    @Test("a dictionary body with the same keys")
    func dictionaryBody() {
        #expect(OutgoingTapReport(body: ["kind": "sent", "json": "{}"] as [String: Any]) == .sent(json: "{}"))
        #expect(OutgoingTapReport(body: ["kind": "page", "url": 7] as [String: Any]) == .invalid(#"a page report without a "url" string"#))
    }

    @Test("hostile bodies are invalid, never a crash", arguments: [
        "", "null", "[]", "\"sent\"", "{", #"{"kind":1}"#, #"{"json":"{}"}"#, #"{"kind":"sent"}"#, #"{"kind":"sent","json":{}}"#,
        #"{"kind":"other","json":"{}"}"#, #"{"kind":"sent","json":"{}"} trailing"#, String(repeating: "[", count: 100_000),
        #"{"kind":"sent","json":"\ud800"}"#, "\u{0}",
    ])
    func hostileText(_ body: String) {
        guard case .invalid(let why) = OutgoingTapReport(body: body) else {
            Issue.record("accepted: \(body.prefix(80))")
            return
        }
        #expect(!why.isEmpty)
    }

    @Test("bodies of other types are invalid")
    func otherTypes() {
        for body: Any in [42, 1.5, true, [1, 2], ["kind"], Optional<String>.none as Any] {
            #expect(OutgoingTapReport(body: body) == .invalid("a body that is neither a string nor a dictionary"))
        }
    }

    @Test("a body over the size cap is refused before it is parsed")
    func sizeCap() {
        let json = String(repeating: "x", count: OutgoingTapReport.maximumBodyBytes)
        #expect(OutgoingTapReport(body: #"{"kind":"sent","json":""# + json + #""}"#) == .invalid("a body over \(OutgoingTapReport.maximumBodyBytes) bytes"))
        #expect(OutgoingTapReport(body: ["kind": "sent", "json": json] as [String: Any]) == .invalid("a body over \(OutgoingTapReport.maximumBodyBytes) bytes"))
        // The largest message the script reports in full fits, even when every UTF-16 unit takes
        // three UTF-8 bytes (escaped characters take at most two bytes a unit).
        let largest = String(repeating: "€", count: OutgoingTapScript.maximumMessageLength)
        #expect(OutgoingTapReport(body: #"{"kind":"sent","json":""# + largest + #""}"#) == .sent(json: largest))
    }
}
