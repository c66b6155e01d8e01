import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// Fault rules in the TUI (issue 29, item 1): the list beside the reply rules, the form that
/// sends `addFault`, removing one's own and not another's, loading a rules file, and the mark a
/// faulted row carries in the log and the detail view.
@Suite("Fault rules in the inspector")
struct FaultRulesScreenTests {
    static let t0 = Fixture.t0

    static let ownFault = WireFault(
        id: "f1", rule: WireFaultRule(filter: "action:camera.document.capture", effect: .error(code: "BUSY", message: nil, recoverable: nil), firing: .times(2)),
        owner: "bridge-inspector tui", ownerClient: 3, hits: 1)
    static let othersFault = WireFault(
        id: "f2", rule: WireFaultRule(filter: "action:capability.query", effect: .delay(minMs: 6000, maxMs: 6000)),
        owner: "bridge-inspector fault", ownerClient: 5, hits: 0)

    /// The journey, this inspector is client 3, two fault rules (f1 ours).
    static func faultModel(width: Int = 140, height: Int = 40, host: WireHostInfo = Fixture.host) -> InspectorModel {
        var model = makeModel(width: width, height: height)
        model.handle(.frame(InterceptionScreenTests.hello(clientId: 3)))
        model.handle(.frame(Fixture.journeySnapshot(host: host)))
        model.feed(12, .faults([ownFault, othersFault]))
        return model
    }

    /// The journey with one request a fault rule answered BUSY, the newest row (selected).
    static func faultedRowModel(width: Int = 140, height: Int = 40, rule: String = "f1", detail: String? = "BUSY") -> InspectorModel {
        var model = faultModel(width: width, height: height)
        var request = Fixture.request(seq: 13, id: "doc-8", action: "camera.document.capture", at: t0 + 100)
        request.fault = FaultMark(rule: rule, effect: .errored, detail: detail)
        model.feed(13, .traffic(request))
        return model
    }

    @Test("X lists every inspector's fault rules with what they do, their hits and whose they are; Tab moves between them and the reply rules")
    func listsRules() {
        var model = Self.faultModel()
        model.press(.char("X"))
        let screen = model.screen
        #expect(screen.contains { $0.contains("Fault rules: 2 (1 hit)") })
        let own = screen.line(containing: "f1") ?? ""
        for part in ["action:camera.document.capture", "error BUSY, 2 times", "1", "● you"] { #expect(own.contains(part), "\(part) in \(own)") }
        let others = screen.line(containing: "f2 ") ?? ""
        for part in ["action:capability.query", "delay 6000ms, always", "bridge-inspector fault (inspector 5)"] {
            #expect(others.contains(part), "\(part) in \(others)")
        }
        // Beside the reply rules: Tab goes there and back.
        model.press(.tab)
        #expect(model.topOverlay is RulesView)
        model.press(.tab)
        #expect(model.topOverlay is FaultsView)
        model.press(.escape, .char("R"), .tab)
        #expect(model.topOverlay is FaultsView)
    }

    @Test("the form sends exactly the addFault typed: a single effect, a count, and a sequence; the host's answer closes it")
    func addsRules() throws {
        var model = Self.faultModel()
        model.press(.char("X"), .char("n"))
        model.type("action:device.info")
        model.press(.tab)
        model.type("error:BUSY")
        model.press(.tab)
        model.type("2 times")
        #expect(model.screenText.contains("✓ ready: Enter adds it: error BUSY, 2 times"))
        let (command, label) = try #require(InterceptionScreenTests.sent(model.press(.enter)))
        #expect(command == .addFault(WireFaultRule(filter: "action:device.info", effect: .error(code: "BUSY", message: nil, recoverable: nil), firing: .times(2))))
        InterceptionScreenTests.reply(&model, label: label, id: "c-1")
        #expect(model.topOverlay is FaultsView)

        // A sequence in the effect field, a probability with its seed in another rule.
        model.press(.char("n"))
        model.type("action:camera.*")
        model.press(.tab)
        model.type("error:BUSY,error:BUSY,pass")
        let sequence = try #require(InterceptionScreenTests.sent(model.press(.enter)))
        #expect(sequence.0 == .addFault(WireFaultRule(filter: "action:camera.*", effect: nil, firing: .sequence([
            .fault(.error(code: "BUSY", message: nil, recoverable: nil)), .fault(.error(code: "BUSY", message: nil, recoverable: nil)), .pass,
        ]))))
        InterceptionScreenTests.reply(&model, label: sequence.1, id: "c-2")
        model.press(.char("n"))
        model.type("dir:out type:event")
        model.press(.tab)
        model.type("delay:1s..3s")
        model.press(.tab)
        model.type("p=0.3 seed=7")
        let probability = try #require(InterceptionScreenTests.sent(model.press(.enter)))
        #expect(probability.0 == .addFault(WireFaultRule(filter: "dir:out type:event", effect: .delay(minMs: 1000, maxMs: 3000), firing: .probability(0.3, seed: 7))))
    }

    @Test("mistakes are shown in the form as typed, with what to write, and Enter sends nothing")
    func parseErrors() {
        var model = Self.faultModel()
        model.press(.char("X"), .char("n"))
        model.type("action:device.info")
        model.press(.tab)
        model.type("eror:BUSY")
        #expect(model.screenText.contains("✗ effect: 'eror:BUSY' is not a step; use pass, drop, never-answer"))
        #expect(model.press(.enter).isEmpty)
        for _ in 0..<9 { model.press(.backspace) }
        model.type("delay:2x")
        #expect(model.screenText.contains("is not a duration from 0 to 600s; write it as 2s, 1.5s or 500ms"))
        for _ in 0..<8 { model.press(.backspace) }
        model.type("error:BUSY,pass")
        model.press(.tab)
        model.type("3")
        #expect(model.screenText.contains("✗ firing: a sequence fires step by step; leave firing empty"))
        #expect(model.press(.enter).isEmpty)
        model.press(.backspace)
        model.type("p=2")
        #expect(model.screenText.contains("a probability is 0 to 1"))
        #expect(model.topOverlay is FaultDialog)
    }

    @Test("the host's refusal shows in the form and keeps what was typed")
    func hostRefusal() throws {
        var model = Self.faultModel()
        model.press(.char("X"), .char("n"))
        model.type("is:pending")
        model.press(.tab)
        model.type("drop")
        let (_, label) = try #require(InterceptionScreenTests.sent(model.press(.enter)))
        InterceptionScreenTests.reply(&model, label: label, id: "c-1", error: InspectorError(code: "invalid_arguments", message: "fault rule filter: is:pending cannot apply"))
        let dialog = try #require(model.topOverlay as? FaultDialog)
        #expect(dialog.filter.text == "is:pending")
        #expect(model.screenText.contains("✗ fault rule filter: is:pending cannot apply"))
    }

    @Test("d removes this inspector's rule with removeFault; another's is refused, naming whose it is and when it goes")
    func removes() throws {
        var model = Self.faultModel()
        model.press(.char("X"))
        let (command, _) = try #require(InterceptionScreenTests.sent(model.press(.char("d"))))
        #expect(command == .removeFault(.init(id: "f1")))
        #expect(model.press(.char("j"), .char("d")).isEmpty)
        #expect(model.footer.contains("f2 is bridge-inspector fault's (inspector 5): only it can remove it, and it goes when that inspector disconnects"))
    }

    @Test("a recording and a host without the faults feature list the rules but refuse new ones, saying why")
    func refusals() {
        var recording = InspectorModel(recording: [Fixture.journeySnapshot()], size: Size(width: 120, height: 40), path: Fixture.socketPath)
        recording.press(.char("X"), .char("n"))
        #expect(recording.topOverlay is FaultsView)
        #expect(recording.footer.contains("no fault rule can be set from here"))
        #expect(recording.press(.char("o")).isEmpty)
        #expect(!(recording.topOverlay is FaultFileDialog))

        let publicAPI = WireHostInfo(
            name: "MyApp", pid: 901, hostVersion: "3.0.0", environment: "ios", startedAt: Self.t0 - 60_000, inspection: HostFeature.publicAPIPath,
            unsupported: [HostFeature.faults.rawValue: "GBGBridge runs its handlers itself"])
        var model = Self.faultModel(host: publicAPI)
        model.press(.char("X"), .char("n"))
        #expect(model.topOverlay is FaultsView)
        #expect(model.footer.contains("not available for this host: GBGBridge runs its handlers itself"))
    }

    @Test("o asks the runner to read a rules file; its rules are each sent as addFault, and a bad file comes back with where and why")
    func loadsFile() throws {
        var model = Self.faultModel()
        model.press(.char("X"), .char("o"))
        model.type("faults.json")
        #expect(model.press(.enter) == [.loadFaultRules(path: "faults.json")])
        let rules = [
            WireFaultRule(filter: "action:capability.query", effect: .delay(minMs: 6000, maxMs: 6000)),
            WireFaultRule(filter: "action:nfc.read", effect: .neverAnswer, firing: .times(1)),
        ]
        let effects = model.handle(.faultRulesLoaded(path: "faults.json", .success(FaultRuleFile(faults: rules))))
        let sent = effects.compactMap { effect -> InspectorCommand? in
            if case .send(let command, _) = effect { return command }
            return nil
        }
        #expect(sent == rules.map { .addFault($0) })
        #expect(model.footer.contains("2 fault rules from faults.json sent"))

        let failure = FaultRuleFileError(place: "faults[1].effect", reason: "unknown fault kind 'boom'")
        #expect(model.handle(.faultRulesLoaded(path: "faults.json", .failure(failure))).isEmpty)
        let dialog = try #require(model.topOverlay as? FaultFileDialog)
        #expect(dialog.input.path.text == "faults.json")
        #expect(model.screenText.contains("faults[1].effect: unknown fault kind 'boom'"))
    }

    @Test("s saves every rule listed as a rules file that reads back as the same rules; a file there is replaced only on y")
    func savesFile() throws {
        var model = Self.faultModel()
        model.press(.char("X"), .char("s"))
        let dialog = try #require(model.topOverlay as? SaveDialog)
        #expect(dialog.kind == .faultRules)
        #expect(model.screenText.contains("Save 2 fault rules (1 yours) as a fault rules file"))
        let effects = model.press(.enter)
        guard case .saveFaultRules(let path, let bytes, let overwrite)? = effects.first, effects.count == 1 else {
            Issue.record("expected one saveFaultRules effect, got \(effects)")
            return
        }
        #expect(path == "faults.json" && !overwrite)
        // The file is what `fault --file` and a fault scenario's "faults" read: the same rules, oldest first.
        #expect(try FaultRuleFile.decode(Data(bytes)).faults == [Self.ownFault.rule, Self.othersFault.rule])

        model.handle(.faultRulesSaved(.exists(path: "/tmp/faults.json")))
        #expect(model.screenText.contains("/tmp/faults.json already exists. Replace it with these fault rules?"))
        guard case .saveFaultRules(_, _, true)? = model.press(.char("y")).first else {
            Issue.record("y should replace the file")
            return
        }
        model.handle(.faultRulesSaved(.saved(path: "/tmp/faults.json", bytes: bytes.count)))
        #expect(model.footer.contains("saved 2 fault rules (1 yours) to /tmp/faults.json (bridge-inspector fault --file /tmp/faults.json sets them again)"))

        // Nothing listed: nothing to save, and the view says how to add one.
        var empty = makeModel(width: 120, height: 40)
        empty.handle(.frame(Fixture.journeySnapshot()))
        empty.press(.char("X"), .char("s"))
        #expect(empty.topOverlay is FaultsView)
        #expect(empty.footer.contains("no fault rules to save: n adds one"))
    }

    @Test("a faulted row shows the rule and what it did in the log and the detail view; the status line counts the rules' hits")
    func faultMark() {
        var model = Self.faultedRowModel()
        let row = model.screen.line(containing: "doc-8") ?? ""
        #expect(row.contains("⚡ f1 errored BUSY camera.document.capture"), "\(row)")
        #expect(model.screen[0].contains("⚡ 2 fault rules, 1 faulted (X)"))
        model.press(.enter)
        #expect(model.screenText.contains("⚡ fault rule f1: answered with the error BUSY instead of by its handler"))
        // Narrow: the rule alone, so the action keeps its room.
        let narrow = Self.faultedRowModel(width: 80, height: 24)
        #expect(narrow.screen.line(containing: "⚡ f1 camera.doc") != nil)
    }

    @Test("a fault mark's text from the host is sanitized before it reaches the terminal")
    func hostileMark() {
        let model = Self.faultedRowModel(rule: "f\u{1B}]0;x\u{07}1", detail: "BUSY\u{1B}[2J")
        let buffer = model.render()
        #expect(forbiddenCells(buffer).isEmpty)
        #expect(buffer.rendered().contains("⚡ f"))
    }

    @Test("quitting asks first while this inspector has fault rules set, saying they go")
    func quitQuestion() {
        let model = Self.faultModel()
        #expect(model.quitQuestion?.contains("Your 1 fault rule will be removed") == true)
    }
}
