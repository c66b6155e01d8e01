import BridgeCore
import Foundation
@testable import JourneySimulation
import Testing

/// Every kind of bad profile or scenario is refused with an error that names the file, the place
/// and what was expected. The texts are compared exactly: they are the user interface.
@Suite("Bad input")
struct BadInputTests {
    static let profileFields = #"expected one of "name", "description", "hostVersion", "environment", "messageLogCap", "slots", "customCapabilities""#

    // MARK: Profiles

    @Test("a profile that is not valid JSON: line and column")
    func profileSyntax() {
        #expect(profileError("{\n  \"name\": \"x\"\n  \"hostVersion\": \"1\"\n}") ==
            #"p.json: line 3, column 3: invalid JSON: expected ',' or '}' in an object, found '"'"#)
        #expect(profileError("") == "p.json: line 1, column 1: invalid JSON: the text is empty; expected a JSON value")
    }

    @Test("a profile with an unknown field, with a suggestion for a typo")
    func profileUnknownField() {
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "hostversion": "2"}"#) ==
            #"p.json: hostversion: unknown field "hostversion" (did you mean "hostVersion"?); "# + Self.profileFields)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "colour": "red"}"#) ==
            #"p.json: colour: unknown field "colour"; "# + Self.profileFields)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"document": {"handler": "auto", "delay": 5}}}"#) ==
            #"p.json: slots.document.delay: unknown field "delay" (did you mean "delayMs"?); expected one of "handler", "enabled", "permissionState", "version", "delayMs", "width", "height", "mimeType", "imageBytes""#)
    }

    @Test("a profile with a missing required field")
    func profileMissingField() {
        #expect(profileError(#"{"name": "x"}"#) ==
            #"p.json: (top level): missing required field "hostVersion" (the version the host reports, such as "1.0.0")"#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"behaviour": "pending"}]}"#) ==
            #"p.json: customCapabilities[0]: missing required field "id" (the capability id, such as "device.info")"#)
    }

    @Test("a profile with a wrong type")
    func profileWrongType() {
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "messageLogCap": "200"}"#) ==
            #"p.json: messageLogCap: expected a number of messages from 0 to 1000000, found the string "200""#)
        #expect(profileError(#"{"name": "x", "hostVersion": 1}"#) ==
            #"p.json: hostVersion: expected a non-empty version string such as "1.0.0", found the number 1"#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"selfie": {"enabled": "yes"}}}"#) ==
            #"p.json: slots.selfie.enabled: expected true or false, found the string "yes""#)
        #expect(profileError(#"[]"#) ==
            #"p.json: (top level): expected a profile object with "name" and "hostVersion", found an array"#)
    }

    @Test("a profile that names a slot that does not exist")
    func profileUnknownSlot() {
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"passport": {}}}"#) ==
            #"p.json: slots.passport: unknown slot "passport"; expected "document" or "selfie""#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"selfy": {}}}"#) ==
            #"p.json: slots.selfy: unknown slot "selfy" (did you mean "selfie"?); expected "document" or "selfie""#)
    }

    @Test("a profile with impossible values")
    func profileImpossibleValues() {
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"document": {"handler": "auto", "delayMs": -5}}}"#) ==
            "p.json: slots.document.delayMs: expected a whole number of milliseconds from 0 to 3600000, found the number -5")
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"document": {"handler": "automatic"}}}"#) ==
            #"p.json: slots.document.handler: expected one of "auto", "manual", "none", found the string "automatic""#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"document": {"permissionState": "allowed"}}}"#) ==
            #"p.json: slots.document.permissionState: expected one of "granted", "denied", "notDetermined", "restricted", found the string "allowed""#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"document": {"handler": "auto", "width": 0}}}"#) ==
            "p.json: slots.document.width: expected a width in pixels from 1 to 100000, found the number 0")
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"id": "a", "behaviour": {"respond": {"status": "ok"}}}]}"#) ==
            #"p.json: customCapabilities[0].behaviour.respond.status: expected one of "success", "error", "cancelled", "unsupported", found the string "ok""#)
        #expect(profileError(#"{"name": "", "hostVersion": "1"}"#) ==
            #"p.json: name: expected a non-empty host name, found the string """#)
    }

    @Test("a profile with fields that do nothing for the chosen behaviour")
    func profileFieldsThatDoNothing() {
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "slots": {"document": {"handler": "manual", "delayMs": 100}}}"#) ==
            #"p.json: slots.document.delayMs: "delayMs" is only used when "handler" is "auto" (this slot's handler is "manual"); remove it or set "handler": "auto""#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"id": "nfc.read", "behaviour": "pending", "delayMs": 5}]}"#) ==
            #"p.json: customCapabilities[0].delayMs: "delayMs" is only used when a handler answers ("respond" or "error"); a "pending" capability never answers by itself"#)
    }

    @Test("a profile with bad custom capabilities")
    func profileBadCustomCapabilities() {
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"id": "a", "behaviour": "pending"}, {"id": "a", "behaviour": "pending"}]}"#) ==
            #"p.json: customCapabilities[1].id: duplicate capability id "a"; it is already defined at customCapabilities[0]"#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"id": "capability.query", "behaviour": "pending"}]}"#) ==
            #"p.json: customCapabilities[0].id: "capability.query" is answered by the host itself and cannot be a custom capability"#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"id": "a", "behaviour": "respond"}]}"#) ==
            #"p.json: customCapabilities[0].behaviour: expected "pending", {"respond": {"status": ...}} or {"error": {"code": ...}}, found the string "respond""#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"id": "a", "behaviour": {"respond": {"status": "success"}, "error": {"code": "BUSY"}}}]}"#) ==
            #"p.json: customCapabilities[0].behaviour: expected exactly one of "respond" or "error", found both"#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"id": "a", "behaviour": {"reply": {}}}]}"#) ==
            #"p.json: customCapabilities[0].behaviour.reply: unknown behaviour "reply"; expected "respond" or "error""#)
        #expect(profileError(#"{"name": "x", "hostVersion": "1", "customCapabilities": [{"id": "a", "behaviour": {"error": {"code": "NFC_OFF"}}}]}"#) ==
            #"p.json: customCapabilities[0].behaviour.error: missing required field "message" (a sentence for a person; only the standard codes UNSUPPORTED, PERMISSION_DENIED, CANCELLED, TIMEOUT, BUSY, INVALID_REQUEST, INTERNAL_ERROR, VERSION_MISMATCH have a default)"#)
    }

    @Test("a profile file that does not exist")
    func profileMissingFile() {
        #expect(throws: SimulationInputError(file: "/nonexistent/x.json", place: "", message: "cannot read the file: no such file")) {
            try HostProfile.load(path: "/nonexistent/x.json")
        }
        #expect(SimulationInputError(file: "/nonexistent/x.json", place: "", message: "cannot read the file: no such file").description ==
            "/nonexistent/x.json: cannot read the file: no such file")
    }

    // MARK: Scenarios

    @Test("a scenario that is not valid JSON: line and column")
    func scenarioSyntax() {
        #expect(scenarioError("{\"name\": \"t\",\n \"steps\": [\n  {\"wait\": 5},\n  {\"wait\" 5}\n ]\n}") ==
            "s.json: line 4, column 11: invalid JSON: expected ':' after an object key, found '5'")
        #expect(scenarioError(#"{"name": "t", "steps": [{"wait": 5},]}"#) ==
            "s.json: line 1, column 37: invalid JSON: expected a value, found ']'")
    }

    @Test("a scenario with an unknown field or step kind")
    func scenarioUnknownField() {
        #expect(scenarioError(#"{"name": "t", "stpes": []}"#) ==
            #"s.json: stpes: unknown field "stpes" (did you mean "steps"?); expected one of "name", "description", "loop", "steps""#)
        #expect(scenarioError(steps(#"{"sleep": 5}"#)) ==
            #"s.json: steps[0].sleep: unknown step kind "sleep"; expected one of "send", "sendRaw", "wait", "awaitResponse", "event", "repeat", "detach""#)
        #expect(scenarioError(steps(#"{"send": {"payload": {"action": "a"}, "corelationId": "x"}}"#)) ==
            #"s.json: steps[0].send.corelationId: unknown field "corelationId" (did you mean "correlationId"?); expected one of "type", "payload", "correlationId", "version", "timestamp", "label", "timeoutMs""#)
        #expect(scenarioError(steps(#"{"send": {"payload": {"action": "a", "params": {}}}}"#)) ==
            #"s.json: steps[0].send.payload.params: unknown field "params"; expected one of "action", "data", "status", "error""#)
    }

    @Test("a scenario step with no kind or two kinds")
    func scenarioStepKinds() {
        #expect(scenarioError(steps(#"{"send": {"payload": {"action": "a"}}, "wait": 5}"#)) ==
            #"s.json: steps[0]: a step has exactly one kind, found "send" and "wait"; split them into separate steps"#)
        #expect(scenarioError(steps(#"{}"#)) ==
            #"s.json: steps[0]: expected a step object with exactly one of "send", "sendRaw", "wait", "awaitResponse", "event", "repeat", "detach", found an empty object"#)
        #expect(scenarioError(steps(#""wait""#)) ==
            #"s.json: steps[0]: expected a step object with exactly one of "send", "sendRaw", "wait", "awaitResponse", "event", "repeat", "detach", found the string "wait""#)
    }

    @Test("a scenario with a wrong type")
    func scenarioWrongType() {
        #expect(scenarioError(#"{"name": "t", "loop": "yes", "steps": [{"wait": 5}]}"#) ==
            #"s.json: loop: expected true or false, found the string "yes""#)
        #expect(scenarioError(steps(#"{"wait": 2.5}"#)) ==
            "s.json: steps[0].wait: expected a whole number of milliseconds from 0 to 3600000, found the number 2.5")
        #expect(scenarioError(steps(#"{"send": {"payload": {"action": "a", "data": [1]}}}"#)) ==
            "s.json: steps[0].send.payload.data: expected an object (the message data), found an array")
        #expect(scenarioError(#"{"name": "t", "steps": {}}"#) ==
            "s.json: steps: expected an array of steps, found an object")
    }

    @Test("a detach step takes exactly true")
    func scenarioDetachValue() {
        #expect(scenarioError(steps(#"{"detach": false}"#)) ==
            "s.json: steps[0].detach: expected true (the host forgets the journey's WebView; nothing it sends is delivered after this step), found false")
        #expect(scenarioError(steps(#"{"detach": {}}"#)) ==
            "s.json: steps[0].detach: expected true (the host forgets the journey's WebView; nothing it sends is delivered after this step), found an object")
    }

    @Test("a scenario with impossible values")
    func scenarioImpossibleValues() {
        #expect(scenarioError(steps("""
            {"wait": 1}, {"wait": 1}, {"send": {"payload": {"action": "a"}, "label": "l"}},
            {"awaitResponse": {"label": "l", "timeoutMs": -5}}
            """)) == "s.json: steps[3].awaitResponse.timeoutMs: expected a whole number of milliseconds from 1 to 86400000, found the number -5")
        #expect(scenarioError(steps(#"{"repeat": {"times": 0, "steps": [{"wait": 1}]}}"#)) ==
            "s.json: steps[0].repeat.times: expected a whole number of repetitions from 1 to 1000000, found the number 0")
        #expect(scenarioError(steps(#"{"wait": -1}"#)) ==
            "s.json: steps[0].wait: expected a whole number of milliseconds from 0 to 3600000, found the number -1")
        #expect(scenarioError(steps(#"{"send": {"type": "command", "payload": {"action": "a"}}}"#)) ==
            #"s.json: steps[0].send.type: expected one of "request", "response", "event", found the string "command""#)
        #expect(scenarioError(steps(#"{"send": {"type": "response", "payload": {"action": "a", "status": "fine"}}}"#)) ==
            #"s.json: steps[0].send.payload.status: expected one of "success", "error", "cancelled", "unsupported", found the string "fine""#)
        #expect(scenarioError(#"{"name": "t", "steps": []}"#) ==
            "s.json: steps: expected an array of steps with at least one element, found an empty array")
        #expect(scenarioError(steps(#"{"repeat": {"times": 2, "steps": []}}"#)) ==
            "s.json: steps[0].repeat.steps: expected an array of steps with at least one element, found an empty array")
    }

    @Test("fields that only fit other message types")
    func scenarioFieldsForOtherTypes() {
        #expect(scenarioError(steps(#"{"send": {"payload": {"action": "a", "status": "success"}}}"#)) ==
            #"s.json: steps[0].send.payload.status: only a "response" carries a status, and this message is a "request"; set "type": "response" or remove "status""#)
        #expect(scenarioError(steps(#"{"send": {"type": "event", "payload": {"action": "a"}, "timeoutMs": 5}}"#)) ==
            #"s.json: steps[0].send.timeoutMs: only a request waits for a response, so only a request has a "timeoutMs"; this message is a "event""#)
    }

    @Test("awaitResponse labels must name an earlier request")
    func scenarioLabels() {
        #expect(scenarioError(steps("""
            {"send": {"payload": {"action": "capability.query"}, "label": "caps"}},
            {"awaitResponse": {"label": "cap"}}
            """)) == #"s.json: steps[1].awaitResponse.label: expected the label of an earlier send step, found "cap" (did you mean "caps"?); labels defined so far: "caps""#)
        #expect(scenarioError(steps(#"{"awaitResponse": {"label": "later"}}, {"send": {"payload": {"action": "a"}, "label": "later"}}"#)) ==
            #"s.json: steps[0].awaitResponse.label: expected the label of an earlier send step, found "later"; no send step before this one has a label"#)
        #expect(scenarioError(steps(#"{"send": {"type": "event", "payload": {"action": "journey.step"}, "label": "ev"}}, {"awaitResponse": {"label": "ev"}}"#)) ==
            #"s.json: steps[1].awaitResponse.label: expected the label of a request, but "ev" (at steps[0].send.label) labels a "event", which gets no response"#)
        #expect(scenarioError(steps(#"{"send": {"payload": {"action": "a"}, "label": "x"}}, {"repeat": {"times": 2, "steps": [{"send": {"payload": {"action": "b"}, "label": "x"}}]}}"#)) ==
            #"s.json: steps[1].repeat.steps[0].send.label: label "x" is already used at steps[0].send.label; give every labelled send its own label"#)
        #expect(scenarioError(steps(#"{"awaitResponse": {"timeoutMs": 5}}"#)) ==
            #"s.json: steps[0].awaitResponse: missing required field "label" (the label of an earlier send step)"#)
    }

    @Test("a looping scenario must wait")
    func scenarioLoopWithoutWaits() {
        #expect(scenarioError(steps(#"{"send": {"payload": {"action": "a"}}}, {"wait": 20}"#, loop: true)) ==
            #"s.json: loop: a looping scenario must wait at least 100 ms per pass (its wait steps add up to 20 ms), or it would flood the host; add a "wait" step"#)
        #expect(scenarioError(steps(#"{"repeat": {"times": 10, "steps": [{"wait": 10}]}}"#, loop: true)) == nil)
    }

    @Test("a scenario file that does not exist, or is a directory")
    func scenarioMissingFile() {
        do {
            _ = try JourneyScenario.load(path: "/nonexistent/s.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/s.json: cannot read the file: no such file")
        }
        do {
            _ = try JourneyScenario.load(path: "/tmp")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/tmp: cannot read the file: it is a directory")
        }
    }
}
