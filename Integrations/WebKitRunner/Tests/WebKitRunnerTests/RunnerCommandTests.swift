import Testing
import WebKitRunnerCore

@Suite struct RunnerCommandTests {
    private func decode(_ line: String) -> Result<RunnerCommand, CommandDecodingError> {
        RunnerCommand.decode(line: Array(line.utf8))
    }

    private func errorText(_ line: String) -> String? {
        if case let .failure(problem) = decode(line) { return problem.text }
        return nil
    }

    @Test func decodesEveryKind() throws {
        #expect(try decode(#"{"kind":"start","handler":"gbgBridge","extraHandlers":["x"],"userScripts":["a()","b()"],"uri":"file:///i.html"}"#).get()
            == .start(StartCommand(handler: "gbgBridge", extraHandlers: ["x"], userScripts: ["a()", "b()"], uri: "file:///i.html")))
        #expect(try decode(#"{"kind":"start","handler":"h","uri":"about:blank"}"#).get()
            == .start(StartCommand(handler: "h", uri: "about:blank")))
        #expect(try decode(#"{"kind":"evaluate","seq":7,"script":"f()"}"#).get() == .evaluate(seq: 7, script: "f()", probe: nil))
        #expect(try decode(#"{"kind":"evaluate","seq":1,"script":"f()","probe":"typeof f"}"#).get()
            == .evaluate(seq: 1, script: "f()", probe: "typeof f"))
        #expect(try decode(#"{"kind":"query","id":0,"script":"1"}"#).get() == .query(id: 0, script: "1"))
        #expect(try decode(#"{"kind":"load","uri":"https://example.org/"}"#).get() == .load(uri: "https://example.org/"))
        #expect(try decode(#"{"kind":"reload"}"#).get() == .reload)
        #expect(try decode(#"{"kind":"destroyView"}"#).get() == .destroyView)
        #expect(try decode(#"{"kind":"terminateWebProcess"}"#).get() == .terminateWebProcess)
        #expect(try decode(#" {"kind":"quit"} "#.appending("\r")).get() == .quit)
    }

    @Test func badJSONIsAnErrorThatShowsTheLine() {
        #expect(errorText("garbage") == "malformed line (not JSON): garbage")
        #expect(errorText(#"{"kind":"quit""#) == #"malformed line (not JSON): {"kind":"quit""#)
        #expect(errorText("[1,2]") == "malformed line (not a JSON object): [1,2]")
        #expect(errorText(#"{"kind":3}"#) == #"malformed line (no "kind" string): {"kind":3}"#)
        #expect(errorText("") == "malformed line (not JSON): ")
        let long = String(repeating: "x", count: 500)
        #expect(errorText(long) == "malformed line (not JSON): " + String(repeating: "x", count: 120) + "… (500 bytes)")
        #expect(RunnerCommand.decode(line: [0xFF, 0xFE]).isFailure)
    }

    @Test func unknownKind() {
        #expect(errorText(#"{"kind":"fly"}"#) == #"unknown kind "fly""#)
    }

    @Test func missingOrMistypedFields() {
        #expect(errorText(#"{"kind":"evaluate","script":"x"}"#) == #""evaluate" needs "seq" (an integer)"#)
        #expect(errorText(#"{"kind":"evaluate","seq":"1","script":"x"}"#) == #""evaluate" needs "seq" (an integer)"#)
        #expect(errorText(#"{"kind":"evaluate","seq":1.5,"script":"x"}"#) == #""evaluate" needs "seq" (an integer)"#)
        #expect(errorText(#"{"kind":"evaluate","seq":true,"script":"x"}"#) == #""evaluate" needs "seq" (an integer)"#)
        #expect(errorText(#"{"kind":"evaluate","seq":1}"#) == #""evaluate" needs "script" (a string)"#)
        #expect(errorText(#"{"kind":"evaluate","seq":1,"script":"x","probe":2}"#) == #""evaluate" needs "probe" (a string, when present)"#)
        #expect(errorText(#"{"kind":"query","script":"x"}"#) == #""query" needs "id" (an integer)"#)
        #expect(errorText(#"{"kind":"load"}"#) == #""load" needs "uri" (a string)"#)
        #expect(errorText(#"{"kind":"start","uri":"about:blank"}"#) == #""start" needs "handler" (a string)"#)
        #expect(errorText(#"{"kind":"start","handler":"","uri":"about:blank"}"#) == #""start" needs "handler" (a non-empty string)"#)
        #expect(errorText(#"{"kind":"start","handler":"h"}"#) == #""start" needs "uri" (a string)"#)
        #expect(errorText(#"{"kind":"start","handler":"h","uri":"u","userScripts":"x"}"#) == #""start" needs "userScripts" (an array of strings, when present)"#)
        #expect(errorText(#"{"kind":"start","handler":"h","uri":"u","extraHandlers":[1]}"#) == #""start" needs "extraHandlers" (an array of strings, when present)"#)
    }

    @Test func integersZeroAndOneAreNotMistakenForBooleans() throws {
        #expect(try decode(#"{"kind":"evaluate","seq":1,"script":"x"}"#).get() == .evaluate(seq: 1, script: "x", probe: nil))
        #expect(try decode(#"{"kind":"query","id":0,"script":"x"}"#).get() == .query(id: 0, script: "x"))
        #expect(decode(#"{"kind":"query","id":false,"script":"x"}"#).isFailure)
    }

    @Test func allHandlersHasNoRepeats() {
        #expect(StartCommand(handler: "a", extraHandlers: ["b", "a", "b"], uri: "u").allHandlers == ["a", "b"])
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
