import Foundation
import TestSupport
import Testing

/// One request the journey sends and leaves pending, holding text a script must not end on.
private let copyScenario = """
    {"name": "copy", "steps": [
      {"send": {"payload": {"action": "nfc.read", "data": {"note": "</script>"}}, "correlationId": "copy-1", "timeoutMs": 600000}},
      {"wait": 600000}
    ]}
    """

/// `y` and `Y` in a real terminal: the inspector writes OSC 52, and tmux (with
/// `set-clipboard on`, which takes OSC 52 from programs into its paste buffer) holds exactly
/// what was copied (issue 15, "Copy": "works over SSH and in tmux").
@Suite(
    "Copying a message in a terminal (OSC 52 through tmux)",
    .serialized,
    .timeLimit(.minutes(10)),
    .requires(.tmux))
struct ClipboardTerminalTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("y puts the selected message's JSON on the clipboard and Y the Safari console line, through tmux")
    func copyThroughTmux() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: copyScenario)
        defer { host.stop() }
        let terminal = try TmuxSession([binary, "inspect", "--socket", host.socket])
        defer { terminal.kill() }
        try terminal.command("set-option", "-g", "set-clipboard", "on")
        _ = try #require(await terminal.waitFor("copy-1"))
        func buffer() -> String { (try? terminal.command("show-buffer")) ?? "" }

        // What the status line says is ClipboardCopyTests' to check: it is a flash of four seconds
        // of real time, which a loaded machine can let pass between two looks through tmux.
        try terminal.press("y")
        #expect(await waitUntil(timeout: .seconds(120)) { buffer().contains("copy-1") }, "\(terminal.screen())")
        let json = buffer()
        let message = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        #expect(message["correlationId"] as? String == "copy-1")
        #expect(json.contains(#""note":"</script>""#))

        try terminal.press("Y")
        #expect(await waitUntil(timeout: .seconds(120)) { buffer().hasPrefix("window.webkit") }, "\(terminal.screen())")
        let line = buffer()
        // The message goes through JSON.parse of a string literal, so every key survives
        // (`__proto__` too), and nothing in it can end a <script> element.
        #expect(line.hasPrefix(#"window.webkit.messageHandlers.gbgBridge.postMessage(JSON.parse("{"#))
        #expect(line.hasSuffix(#"}"));"#))
        #expect(line.contains(#"\"note\":\"\u003c/script\u003e\""#))
        #expect(!line.contains("</script>"))
    }

    @Test("inside tmux with its default options (set-clipboard external, no passthrough) y says nothing was copied and how to enable it, instead of \"copied\" (issue 27)")
    func tmuxDefaultsRefuse() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: copyScenario)
        defer { host.stop() }
        let terminal = try TmuxSession([binary, "inspect", "--socket", host.socket])
        defer { terminal.kill() }
        try terminal.command("set-option", "-s", "set-clipboard", "external")
        try terminal.command("set-option", "-gw", "allow-passthrough", "off")
        _ = try #require(await terminal.waitFor("copy-1"))
        try terminal.press("y")
        // The notice is kept in the action log (A), so a loaded machine cannot make it pass unseen.
        try terminal.press("A")
        await terminal.waitFor("not copied: tmux keeps the clipboard sequence", "set-clipboard on")
        #expect(!((try? terminal.command("show-buffer")) ?? "").contains("copy-1"), "nothing reached tmux's buffer")
    }
}
