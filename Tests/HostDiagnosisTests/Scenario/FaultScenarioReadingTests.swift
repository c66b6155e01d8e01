import Foundation
import HostDiagnosis
import InspectorClient
import InspectorProtocol
import Testing

/// Reading a fault scenario file (issue 29, item 3; docs/fault-scenarios.md): every field, and
/// every mistake refused with its place and what would be right, before anything reaches a host.
@Suite("Fault scenario files")
struct FaultScenarioReadingTests {
    static let full = #"""
        {"version": 1, "name": "capture-busy", "description": "notes",
         "faults": [{"filter": "action:camera.document.capture",
                     "firing": {"kind": "sequence", "steps": [{"kind": "error", "code": "BUSY"}, {"kind": "pass"}]}},
                    {"filter": "action:capability.query", "effect": {"kind": "delay", "minMs": 6000}}],
         "steps": [{"at": "0s", "do": "reload"},
                   {"when": "action:camera.document.capture", "after": "500ms", "do": "background"},
                   {"at": 2500, "do": "orientation", "value": "landscape"}],
         "until": "action:journey.complete", "duration": "90s", "settle": "2s",
         "expect": [{"after": "BUSY", "action": "camera.*", "journey": "retries", "within": "5s"},
                    {"after": "INTERNAL_ERROR", "journey": "doesNotRetry"},
                    {"after": "cancelled", "journey": "sendsCancel"},
                    {"after": "no-answer", "action": "device.info", "journey": "retries"}],
         "doctor": {"failOn": "warning", "skip": ["pending-requests", "contract"]}}
        """#

    static func read(_ text: String) throws(FaultScenarioError) -> FaultScenario {
        try FaultScenario.read(Data(text.utf8))
    }

    /// The error reading `text` gives.
    static func error(_ text: String) -> FaultScenarioError? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("every field read as written")
    func everyField() throws {
        let scenario = try Self.read(Self.full)
        #expect(scenario.name == "capture-busy")
        #expect(scenario.description == "notes")
        #expect(scenario.faults.count == 2)
        #expect(scenario.faults[1].effect == .delay(minMs: 6000, maxMs: 6000))
        #expect(scenario.steps == [
            .init(moment: .at(ms: 0), step: .journey(.reload)),
            .init(moment: .after(filter: "action:camera.document.capture", ms: 500), step: .background),
            .init(moment: .at(ms: 2500), step: .orientation("landscape")),
        ])
        #expect(scenario.until == "action:journey.complete")
        #expect(scenario.durationMs == 90_000)
        #expect(scenario.settleMs == 2_000)
        #expect(scenario.expectations == [
            .init(trigger: .error(code: "BUSY"), action: "camera.*", reaction: .retries, withinMs: 5_000),
            .init(trigger: .error(code: "INTERNAL_ERROR"), reaction: .doesNotRetry),
            .init(trigger: .cancelled, reaction: .sendsCancel),
            .init(trigger: .noAnswer, action: "device.info", reaction: .retries),
        ])
        #expect(scenario.doctor == .init(failOn: .warning, skip: [.pendingRequests, .contract]))
        #expect(scenario.expectations[0].sentence == "after BUSY on camera.* the journey retries within 5.0s")
    }

    @Test("a reload at 0s is done before the rules are set; any other step, or a reload later, in its time")
    func stepsBeforeRules() throws {
        #expect(try Self.read(Self.full).stepsBeforeRules == [0])
        let later = try Self.read(#"{"name": "n", "steps": [{"at": "1s", "do": "reload"}, {"at": "0s", "do": "background"}, {"when": "action:x", "do": "reload"}]}"#)
        #expect(later.stepsBeforeRules.isEmpty)
    }

    @Test("the defaults: one minute, a second's settle, every doctor check failing on failures")
    func defaults() throws {
        let scenario = try Self.read(#"{"name": "n", "steps": [{"at": "1s", "do": "background"}]}"#)
        #expect(scenario.faults.isEmpty && scenario.expectations.isEmpty && scenario.until == nil)
        #expect(scenario.durationMs == 60_000 && scenario.settleMs == 1_000)
        #expect(scenario.doctor == .init())
    }

    @Test(
        "each mistake is refused with its place and what would be right",
        arguments: [
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "expcet": []}"#, "expcet", "unknown field \"expcet\" (did you mean \"expect\"?)"),
            (#"{"steps": [{"at": "1s", "do": "background"}]}"#, "name", "missing"),
            (#"{"name": "n"}"#, "(top level)", "no faults and no steps"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "sleep"}]}"#, "steps[0].do", "unknown lifecycle step: sleep"),
            (#"{"name": "n", "steps": [{"do": "background"}]}"#, "steps[0]", "say when"),
            (#"{"name": "n", "steps": [{"at": "1s", "when": "action:x", "do": "background"}]}"#, "steps[0]", "not both"),
            (#"{"name": "n", "steps": [{"at": "1s", "after": "1s", "do": "background"}]}"#, "steps[0].after", "goes with \"when\""),
            (#"{"name": "n", "steps": [{"at": "soon", "do": "background"}]}"#, "steps[0].at", "not a duration"),
            (#"{"name": "n", "steps": [{"when": "action:", "do": "background"}]}"#, "steps[0].when", "needs a value after 'action:'"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "orientation"}]}"#, "steps[0].do", "orientation needs a value"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "settle": "1s"}"#, "settle", "give \"until\""),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "duration": "0s"}"#, "duration", "longer than 0"),
            (#"{"name": "n", "faults": [{"filter": "is:pending", "effect": {"kind": "drop"}}]}"#, "faults[0].filter", "is:pending"),
            (#"{"name": "n", "faults": [{"filter": "action:x"}]}"#, "faults[0]", "say what the rule does"),
            (#"{"name": "n", "faults": [{"filter": "action:x", "effect": {"kind": "explode"}}]}"#, "faults[0].effect.kind", "unknown fault kind 'explode'"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "expect": [{"after": "busy", "journey": "retries"}]}"#, "expect[0].after", "in capitals"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "expect": [{"after": "BUSY", "journey": "retry"}]}"#, "expect[0].journey", "retries, doesNotRetry, sendsCancel"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "expect": [{"after": "BUSY", "journey": "sendsCancel"}]}"#, "expect[0].journey", "cancellation"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "expect": [{"after": "BUSY", "journey": "doesNotRetry", "within": "2s"}]}"#, "expect[0].within", "watches the whole run"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "expect": [{"after": "BUSY", "journey": "retries", "within": "45s"}]}"#, "expect[0].within", "at most 30.0s"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "doctor": {"skip": ["pending-request"]}}"#, "doctor.skip[0]", "did you mean 'pending-requests'?"),
            (#"{"name": "n", "steps": [{"at": "1s", "do": "background"}], "doctor": {"failOn": "error"}}"#, "doctor.failOn", "failure, warning, never"),
            (#"{"version": 2, "name": "n", "steps": [{"at": "1s", "do": "background"}]}"#, "version", "update bridge-inspector"),
            ("{\"name\": \"n\",\n \"steps\": [}", "line 2, column 12", "invalid JSON"),
            (#"[]"#, "(top level)", "expected an object"),
        ])
    func mistakes(text: String, place: String, reason: String) throws {
        let error = try #require(Self.error(text), "read without complaint: \(text)")
        #expect(error.place == place, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test("a missing file says so")
    func missingFile() {
        #expect(throws: FaultScenarioError(place: "", reason: "no such file")) {
            try FaultScenario.read(file: "/nonexistent/scenario.json")
        }
    }

    @Test("the examples in examples/fault-scenarios/ read")
    func examples() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../examples/fault-scenarios").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        #expect(!files.isEmpty)
        for file in files {
            #expect(throws: Never.self, "\(file)") { try FaultScenario.read(file: directory.appendingPathComponent(file).path) }
        }
    }
}
