import BridgeCore
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// `W`, the lifecycle menu (issue 29, item 2): each key sends its step's command, once.
@Suite("Lifecycle menu")
struct LifecycleMenuTests {
    @Test("each key sends its step: documented events through sendEvent, web view steps through journey", arguments: [
        ("b", InspectorCommand.sendEvent(.init(name: "host.background"))),
        ("f", .sendEvent(.init(name: "host.foreground"))),
        ("p", .sendEvent(.init(name: "host.orientation", data: ["orientation": "portrait"]))),
        ("l", .sendEvent(.init(name: "host.orientation", data: ["orientation": "landscape"]))),
        ("r", .sendEvent(.init(name: "host.ready"))),
        ("d", .journey(.init(step: .detach))),
        ("a", .journey(.init(step: .attach))),
        ("R", .journey(.init(step: .reload))),
    ])
    func keys(key: String, command: InspectorCommand) throws {
        var model = journeyModel()
        model.press(.char("W"))
        #expect(model.topOverlay is LifecycleMenu)
        let effects = model.press(.char(try #require(key.first)))
        let sent = effects.compactMap { effect -> InspectorCommand? in
            if case .send(let command, _) = effect { return command }
            return nil
        }
        #expect(sent == [command])
        #expect(model.overlays.isEmpty, "the menu closes so the log shows what the step did")
        #expect(model.actions.last?.label.hasPrefix("lifecycle: ") == true)
    }

    @Test("↓ and Enter send the entry selected; Esc sends nothing")
    func arrows() {
        var model = journeyModel()
        model.press(.char("W"), .down, .down, .down)
        let effects = model.press(.enter)
        #expect(effects.contains { if case .send(.sendEvent(let args), _) = $0 { return args.data == ["orientation": "landscape"] } else { return false } })
        model.press(.char("W"))
        #expect(model.press(.escape).isEmpty)
        #expect(model.overlays.isEmpty)
    }

    @Test("a host without journey control: web view steps are greyed with the reason and refused; events still go")
    func unsupported() {
        var model = makeModel()
        let host = WireHostInfo(
            name: "MyApp", pid: 901, hostVersion: "3.0.0", environment: "ios", startedAt: Fixture.t0 - 60_000,
            unsupported: [HostFeature.journeyControl.rawValue: "no journey control here"])
        model.handle(.frame(Fixture.journeySnapshot(host: host)))
        model.press(.char("W"))
        #expect(model.screen.contains { $0.contains("web view steps: not available for this host: no journey") }, "\(model.screen)")
        #expect(model.press(.char("d")).isEmpty)
        #expect(model.flash?.text == "not available for this host: no journey control here")
        #expect(!model.press(.char("b")).isEmpty)
    }

    @Test("refused in a recording and in read-only mode, like every sending key")
    func refusedWhenReadOnly() {
        var recording = RecordingClockTests.recording()
        #expect(recording.press(.char("W")).isEmpty)
        #expect(recording.overlays.isEmpty)
        #expect(recording.flash?.text == "this is a recording: nothing can be sent")
        var readOnly = journeyModel()
        readOnly.readOnly = true
        #expect(readOnly.press(.char("W")).isEmpty)
        #expect(readOnly.flash?.text == "this inspector is read-only (--read-only): nothing can be sent")
    }
}
