import Foundation
import TestSupport
import Testing

/// Breakpoints and held messages through the real interactive inspector (issue 15): a breakpoint
/// set with b is marked as this inspector's (the hello's clientId reaches the screen), the next
/// matching request is held and counted in the status line, and answering it from H reaches the
/// journey.
@Suite(
    "Held messages in the interactive inspector",
    .serialized,
    .timeLimit(.minutes(10)),
    .requires(.tmux))
struct HeldMessagesTerminalTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("b adds a breakpoint marked as yours; the next nfc.read is held, counted, and answered from H")
    func breakpointHoldAndAnswer() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingChainedNFCScenario)
        defer { host.stop() }
        let state = try TemporaryDirectory()
        let session = try TmuxSession([binary, "--socket", host.socket], environment: ["XDG_STATE_HOME": state.path])
        defer { session.kill() }
        await session.waitFor("connected", "nfc-1")
        try session.press("b")
        await session.waitFor("No breakpoints.")
        try session.press("n")
        await session.waitFor("New breakpoint")
        try session.type("action:nfc.read")
        try session.press("Enter")
        await session.waitFor("Breakpoints: 1", "● you")
        // Answer nfc-1 (pending before the breakpoint): the journey then sends nfc-2, which is held.
        try session.press("Escape", "r")
        await session.waitFor("Respond to nfc.read", "request nfc-1")
        try session.press("Enter")
        #expect(await waitUntil(timeout: .seconds(15)) { host.receivedResponse("nfc-1") != nil })
        await session.waitFor("⏸ 1 held")
        try session.press("H")
        await session.waitFor("Held at breakpoints: 1", "nfc-2")
        try session.press("a")
        await session.waitFor("Answer held nfc.read")
        try session.type(#"{"uid":"77"}"#)
        try session.press("Enter")
        #expect(await waitUntil(timeout: .seconds(15)) { host.receivedResponse("nfc-2") != nil })
        // Quitting removes this inspector's breakpoint: it asks first, and says so.
        try session.press("Escape", "q")
        await session.waitFor("Quit? Your 1 breakpoint will be removed")
        try session.press("y")
        #expect(await session.exitStatus() == 0)
    }
}
