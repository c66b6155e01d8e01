import Foundation
import TestSupport
import Testing

/// The responses a person sends by hand are kept between runs of the interactive inspector in
/// `$XDG_STATE_HOME/bridge-inspector/responses.json` (issue 13): saved when one is sent, offered
/// by Ctrl-T in the next run; a damaged file is reported and left as it is.
@Suite(
    "Remembered responses across runs of the inspector",
    .serialized,
    .timeLimit(.minutes(10)),
    .requires(.tmux))
struct RememberedResponsesTerminalTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("a damaged file is left alone (RememberedResponsesTests check it is reported); a typed answer is saved and offered by Ctrl-T in the next run")
    func keptBetweenRuns() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingChainedNFCScenario)
        defer { host.stop() }
        let state = try TemporaryDirectory()
        let file = state.file("bridge-inspector/responses.json")
        try FileManager.default.createDirectory(atPath: state.file("bridge-inspector"), withIntermediateDirectories: true)
        let damaged = "{\"version\": 1, \"responses\": [oops"
        try Data(damaged.utf8).write(to: URL(fileURLWithPath: file))
        let environment = ["XDG_STATE_HOME": state.path]

        // Run 1: an answer typed by hand does not overwrite the damaged file.
        let first = try TmuxSession([binary, "--socket", host.socket], environment: environment)
        defer { first.kill() }
        // The notice that the file was not loaded is RememberedResponsesTests' to check: it is a
        // flash of eight seconds of real time from start-up, which a loaded machine can let pass
        // before the first look through tmux. Here: the file is left alone.
        await first.waitFor("connected", "nfc-1")
        try first.press("r")
        await first.waitFor("Respond to nfc.read", "type replaces it")
        try first.type(#"{"uid":"0001"}"#)
        try first.press("Enter")
        #expect(await waitUntil(timeout: .seconds(15)) { host.receivedResponse("nfc-1") != nil })
        try first.press("q")
        #expect(await first.exitStatus() == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == damaged)

        // Run 2, the file moved away: the typed answer is saved.
        try FileManager.default.removeItem(atPath: file)
        let second = try TmuxSession([binary, "--socket", host.socket], environment: environment)
        defer { second.kill() }
        await second.waitFor("connected", "nfc-2")
        try second.press("r")
        await second.waitFor("Respond to nfc.read", "request nfc-2")
        try second.type(#"{"uid":"04A2"}"#)
        try second.press("Enter")
        #expect(await waitUntil(timeout: .seconds(15)) { host.receivedResponse("nfc-2") != nil })
        try second.press("q")
        #expect(await second.exitStatus() == 0)
        #expect((try? String(contentsOfFile: file, encoding: .utf8))?.contains("04A2") == true)

        // Run 3: Ctrl-T offers it first.
        let third = try TmuxSession([binary, "--socket", host.socket], environment: environment)
        defer { third.kill() }
        await third.waitFor("connected", "nfc-3")
        try third.press("r")
        await third.waitFor("Respond to nfc.read", "request nfc-3")
        try third.press("C-t")
        await third.waitFor(#"template: sent before: success {"uid":"04A2"}"#)
        try third.press("Escape", "q")
        #expect(await third.exitStatus() == 0)
    }
}
