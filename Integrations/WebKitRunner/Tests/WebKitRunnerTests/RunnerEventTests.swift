import Foundation
import Testing
import WebKitRunnerCore

@Suite struct RunnerEventTests {
    @Test func encodesKindFirstAndOmitsAbsentFields() {
        #expect(RunnerEvent.started(webkitVersion: "2.50.6", display: ":12").jsonText
            == #"{"kind":"started","webkitVersion":"2.50.6","display":":12"}"#)
        #expect(RunnerEvent.evaluated(seq: 3).jsonText == #"{"kind":"evaluated","seq":3}"#)
        #expect(RunnerEvent.evaluated(seq: 3, probe: "\"function\"").jsonText
            == #"{"kind":"evaluated","seq":3,"probe":"\"function\""}"#)
        #expect(RunnerEvent.evaluateFailed(seq: -1, error: "TypeError: x", probeError: "p").jsonText
            == #"{"kind":"evaluateFailed","seq":-1,"error":"TypeError: x","probeError":"p"}"#)
        #expect(RunnerEvent.load(event: .committed, uri: "file:///a").jsonText
            == #"{"kind":"load","event":"committed","uri":"file:///a"}"#)
        #expect(RunnerEvent.webProcessTerminated(reason: .terminatedByAPI).jsonText
            == #"{"kind":"webProcessTerminated","reason":"terminatedByAPI"}"#)
        #expect(RunnerEvent.viewDestroyed.jsonText == #"{"kind":"viewDestroyed"}"#)
        #expect(RunnerEvent.error(text: "x").encodedLine.last == 10)
    }

    @Test func escapesWhatJSONAndJavaScriptNeed() throws {
        let text = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} é 😀 \u{2028}\u{2029} \u{2027}"
        let line = RunnerEvent.post(handler: "h", text: text).jsonText
        #expect(line.contains(#"quote \" backslash \\ newline \n tab \t nul \u0000 bell \u0007 é 😀 \u2028\u2029 "#))
        #expect(!line.contains("\n"))
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["text"] as? String == text)
    }
}
