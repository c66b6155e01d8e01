import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import InspectorTUI
import TerminalUI
import Testing

/// `bridge-inspector --host NAME` follows the host across runs (issue 12, "stay attached across
/// runs"): the screens it shows while it waits for the first run and after the app is run again.
@Suite("Following a host by name")
struct FollowHostTests {
    /// A model following `demo-app` that has not seen any host yet.
    private func waitingModel(width: Int = 100, height: Int = 24) -> InspectorModel {
        var model = InspectorModel(size: Size(width: width, height: height), socketPath: "", now: Fixture.t0)
        model.timeFormat = TimeFormat(utcOffsetSeconds: 0)
        model.followedHost = "demo-app"
        return model
    }

    @Test("Before any host of the name runs, the whole screen says it waits and how to quit")
    func waitingScreen() {
        let model = waitingModel()
        let screen = model.screen
        #expect(screen[3] == "│waiting for a host named demo-app… (q quits)" + String(repeating: " ", count: 54) + "│")
        #expect(screen[13] == "│no request is waiting" + String(repeating: " ", count: 77) + "│")
        #expect(screen[23] == " ? help  Enter detail  f filter  / search  e event  Tab pane  space pause  : command  q quit")
        #expect(screen[0].hasPrefix(" bridge-inspector │ ○ waiting for a host named demo-app… (q quits) │ 0.0 msg/s"), "\(screen[0])")
        #expect(screen.count(containing: "waiting for a host named demo-app… (q quits)") == 2, "\(model.screenText)")
        #expect(!model.screenText.contains("DISCONNECTED"))
        #expect(!model.screenText.contains("connecting"))
    }

    @Test("q quits while waiting")
    func quitWhileWaiting() {
        var model = waitingModel()
        model.press(.char("q"))
        #expect(model.quitting)
    }

    @Test("The first host attached replaces the waiting screen; several of the name: the note says which was taken")
    func firstAttach() {
        var model = waitingModel(width: 120, height: 20)
        model.handle(.attaching(socketPath: "/tmp/bridge-inspector-501/demo-app.4242.sock", note: "2 hosts named demo-app are running; attached to the newest, pid 4242"))
        model.handle(.frame(Fixture.journeySnapshot()))
        #expect(model.socketPath == "/tmp/bridge-inspector-501/demo-app.4242.sock")
        #expect(model.screen[0].contains("demo-app (pid 4242)"))
        #expect(model.screen[0].contains("● connected"))
        #expect(!model.screenText.contains("waiting for a host named"))
        #expect(model.screenText.contains("2 hosts named demo-app are running; attached to the newest, pid 4242"))
        #expect(!model.live.log.contains { if case .hostRestarted = $0.kind { return true } else { return false } })
    }

    @Test("The app run again: the old log stays above one marker row naming both pids")
    func restartMarker() {
        var model = journeyModel()
        model.followedHost = "demo-app"
        let before = model.live.log.count
        model.handle(.disconnected)
        model.handle(.tick(Fixture.t0 + 3_000))
        #expect(model.screen[0].contains("✗ DISCONNECTED 3.0s ago, waiting for demo-app to run again…"), "\(model.screen[0])")
        model.handle(.attaching(socketPath: "/tmp/bridge-inspector-501/demo-app.5151.sock", note: nil))
        model.handle(.tick(Fixture.t0 + 6_000))
        model.handle(.frame(.snapshot(seq: 1, state: Fixture.state(
            host: Fixture.restartedHost,
            messages: [Fixture.hostEvent(seq: 1, id: "ios-event-new-run", name: "host.ready", at: Fixture.t0 + 5_500)]))))
        let rows = model.messageLines.filter { !$0.isEmpty }
        #expect(rows.count == before + 3)
        #expect(rows[before] == "┄┄ 22:13:20.000 disconnected from the host ┄┄")
        #expect(rows[before + 1] == "── 22:13:26.000 demo-app restarted: pid 4242 ended, pid 5151 attached ──")
        #expect(rows[before + 2].contains("host.ready"))
        #expect(rows[0].contains("host.ready"))  // the old run's first row is still there
        #expect(model.screen[0].contains("demo-app (pid 5151)") && model.screen[0].contains("● connected"))
    }

    @Test("A hostile name in the new host's hello reaches the screen made safe")
    func hostileName() {
        var model = journeyModel(width: 120, height: 24)
        model.followedHost = "demo-app"
        model.handle(.disconnected)
        let hostile = WireHostInfo(name: "evil\u{1B}[2J\u{07}\u{202E}app", pid: 6000, hostVersion: "1", environment: "ios", startedAt: Fixture.t0)
        model.handle(.frame(.snapshot(seq: 0, state: Fixture.state(host: hostile))))
        let buffer = model.render()
        #expect(forbiddenCells(buffer).isEmpty, "\(forbiddenCells(buffer))")
        #expect(model.messageLines.contains { $0.contains(#"evil\x1B[2J\x07\u{202E}app restarted: pid 4242 ended, pid 6000"#) }, "\(model.messageLines)")
    }

    @Test("A followed host that only reattaches (same pid) keeps the plain 'reattached' marker")
    func samePidIsNotARestart() {
        var model = journeyModel()
        model.followedHost = "demo-app"
        model.handle(.disconnected)
        model.handle(.frame(Fixture.journeySnapshot()))
        #expect(model.messageLines.contains { $0.contains("reattached to the same host") })
        #expect(!model.messageLines.contains { $0.contains("restarted: pid") })
    }
}

