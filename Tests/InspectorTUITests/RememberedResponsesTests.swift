import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Responses sent by hand are remembered per action and offered first by Ctrl-T, and kept
/// between runs in the state directory (issue 13: "the respond templates a person built up are
/// kept between runs, like a shell's history").
@Suite("Remembered responses")
struct RememberedResponsesTests {
    /// A state directory of its own, removed after `body`.
    static func withStateDirectory(_ body: (StateDirectory) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remembered-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(StateDirectory(path: path))
    }

    /// Answers `id` (an nfc.read) by hand with `data` typed into the dialog; returns the effects.
    static func answer(_ model: inout InspectorModel, _ id: String, data: String) -> [InspectorEffect] {
        model.feed(model.live.seq + 1, .pendingAdded(Fixture.pending(id, "nfc.read", since: Fixture.t0)))
        model.press(.tab, .char("G"), .enter)
        model.type(data)
        return model.press(.enter)
    }

    @Test("A response sent by hand is remembered for its action, saved, and offered first by Ctrl-T")
    func rememberedAndOffered() throws {
        try Self.withStateDirectory { state in
            var model = journeyModel()
            var store = InspectorStateStore(directory: state)
            store.load(into: &model)
            _ = Self.answer(&model, "nfc-2", data: #"{"uid":"04A2"}"#)
            let expected = RememberedResponses(entries: [.init(action: "nfc.read", response: .init(status: .success, data: ["uid": "04A2"]))])
            #expect(model.rememberedResponses == expected)
            #expect(store.saveChanges(of: model) == nil)
            let saved = try state.load(RememberedResponses.self, from: RememberedResponses.fileName)
            #expect(saved == expected)
        }
        var model = journeyModel()
        _ = Self.answer(&model, "nfc-2", data: #"{"uid":"04A2"}"#)
        // The next nfc.read: Ctrl-T offers it before the templates.
        model.press(.char("g"), .enter, .ctrl("t"))  // nfc-1, the Pending pane still focused
        #expect(model.screen.contains { $0.contains(#"template: sent before: success {"uid":"04A2"}"#) })
        #expect(try #require(respondDialog(model)).data.text == #"{"uid":"04A2"}"#)
        model.press(.ctrl("t"))
        #expect(model.screen.contains { $0.contains("template: success, no data") })
        // Another action is not offered it.
        model.press(.escape, .char("j"), .enter, .ctrl("t"))
        #expect(model.screen.contains { $0.contains("template: success, no data") })
    }

    @Test("Responses loaded at start are offered wherever the dialog is opened from, the detail view too")
    func offeredFromDetail() throws {
        var model = journeyModel()
        model.rememberedResponses = RememberedResponses(entries: [.init(action: "nfc.read", response: .init(status: .success, data: ["uid": "77"]))])
        model.press(.char("g"), .char("j"), .char("j"), .char("j"), .char("j"))  // nfc-1
        #expect(model.selectedEntry?.correlationId == "nfc-1")
        model.press(.enter, .char("r"), .ctrl("t"))
        #expect(try #require(respondDialog(model)).data.text == #"{"uid":"77"}"#)
        #expect(model.screen.contains { $0.contains(#"template: sent before: success {"uid":"77"}"#) })
    }

    @Test("A built-in template sent unchanged is not remembered again")
    func templatesNotRemembered() {
        var model = journeyModel()
        model.press(.tab, .enter, .ctrl("t"), .ctrl("t"))  // unsupported
        model.press(.enter)
        #expect(model.rememberedResponses.entries.isEmpty)
    }

    @Test("Newest first, no duplicates, bounded per action and in all")
    func bounded() {
        var remembered = RememberedResponses()
        let a = ReplyRule.Response(status: .success, data: ["n": 1])
        let b = ReplyRule.Response(status: .success, data: ["n": 2])
        remembered.add(a, for: "nfc.read")
        remembered.add(b, for: "nfc.read")
        remembered.add(a, for: "nfc.read")
        #expect(remembered.responses(for: "nfc.read") == [a, b])
        for n in 0..<30 { remembered.add(.init(status: .success, data: ["n": .number(Double(n + 10))]), for: "nfc.read") }
        #expect(remembered.responses(for: "nfc.read").count == RememberedResponses.perAction)
        #expect(remembered.responses(for: "nfc.read").first?.data == ["n": 39])
        for n in 0..<(RememberedResponses.limit + 20) { remembered.add(.init(status: .success), for: "action.\(n)") }
        #expect(remembered.entries.count == RememberedResponses.limit)
        #expect(remembered.entries.first?.action == "action.\(RememberedResponses.limit + 19)")
    }

    @Test("Saved and loaded back from the state directory; no file yet is no responses and no note")
    func saveAndLoad() throws {
        try Self.withStateDirectory { state in
            var model = journeyModel()
            var store = InspectorStateStore(directory: state)
            store.load(into: &model)
            #expect(model.rememberedResponses.entries.isEmpty)
            #expect(model.flash == nil)
            var remembered = RememberedResponses()
            remembered.add(.init(status: .error, error: BridgeErrorCode.busy.payload()), for: "camera.document.capture")
            remembered.add(.init(status: .success, data: ["uid": "04A2"]), for: "nfc.read")
            model.rememberedResponses = remembered
            #expect(store.saveChanges(of: model) == nil)
            var next = journeyModel()
            var nextStore = InspectorStateStore(directory: state)
            nextStore.load(into: &next)
            #expect(next.rememberedResponses == remembered)
            let text = try String(contentsOfFile: state.file("responses.json"), encoding: .utf8)
            #expect(text.contains(#""version" : 1"#))
        }
    }

    @Test("A damaged file is reported in words and left as it is, never a crash")
    func damagedFile() throws {
        try Self.withStateDirectory { state in
            try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
            for damaged in ["{\"version\": 1, \"responses\": [{\"action\": 3}]}", "not json", "{\"version\": 7, \"responses\": []}"] {
                try Data(damaged.utf8).write(to: URL(fileURLWithPath: state.file("responses.json")))
                var model = journeyModel()
                var store = InspectorStateStore(directory: state)
                store.load(into: &model)
                #expect(model.rememberedResponses.entries.isEmpty)
                let problem = try #require(model.flash?.text)
                #expect(problem.contains("not loaded and will not be saved this run"))
                #expect(problem.contains(state.file("responses.json")))
                #expect(problem.contains("move it away to start afresh"))
                // Responses sent now are not saved over it.
                model.rememberedResponses.add(.init(status: .success), for: "nfc.read")
                #expect(store.saveChanges(of: model) == nil)
                #expect(try String(contentsOfFile: state.file("responses.json"), encoding: .utf8) == damaged)
            }
        }
    }
}
