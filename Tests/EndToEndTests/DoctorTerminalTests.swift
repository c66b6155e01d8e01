import Foundation
import TestSupport
import Testing

/// The doctor view and the linter's count through the real interactive inspector against a real
/// host (issue 16: "a doctor view in the TUI", "counted in the status line"): what a person sees
/// when they press D, and the view following the host while it is open.
@Suite(
    "The doctor in the interactive inspector",
    .serialized,
    .timeLimit(.minutes(10)),
    .requires(.tmux))
struct DoctorTerminalTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("the status line counts lint; D shows the failing lastError with its fix and heading; answering a request updates the open view; Esc closes it")
    func doctorView() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { $0.contains("nfc-1") && $0.contains("nfc-2") })
        let state = try TemporaryDirectory()
        let session = try TmuxSession([binary, "--socket", host.socket], environment: ["XDG_STATE_HOME": state.path])
        defer { session.kill() }
        // The malformed message is the journey's last: once it shows, everything has arrived.
        await session.waitFor("connected", "nfc-2", "malformed", "⚑ 1 lint")

        try session.press("D")
        let report = await session.waitFor(
            "Doctor: GBGBridge's troubleshooting checklist, live", "✗ lastError", "guide: Message Decoding Failures",
            "! Pending requests  2 requests waiting")
        #expect(report?.contains("fix: Validate the message on the web side") == true, "\(report ?? "")")
        #expect(report?.contains("✗ Messages decode") == true, "\(report ?? "")")

        // Answered from a second terminal, the request leaves the doctor's count while it is open.
        #expect(try await host.run(["respond", "nfc-1", "--data", "{}"], binary: binary).status == 0)
        await session.waitFor("! Pending requests  1 request waiting")

        try session.press("Escape")
        await session.waitFor("Pending") { !$0.contains("Doctor: GBGBridge's") }
        try session.press("q")
        #expect(await session.exitStatus() == 0, "\(session.screen())")
    }
}
