import Foundation
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The interactive inspector in a real terminal (tmux) against a real `bridge-inspector host`:
/// what a person sees, and what their keys make the host do.
@Suite(
    "The interactive inspector in a terminal",
    .serialized,
    .timeLimit(.minutes(10)),
    .requires(.tmux))
struct TerminalSessionTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("a socket nobody serves: the inspector says so and how to start a host, and exits 3")
    func noHostAtStart() async throws {
        let directory = try TemporaryDirectory()
        let terminal = try TmuxSession([binary, "--socket", directory.file("nobody.sock")])
        defer { terminal.kill() }
        let screen = await terminal.waitFor("[exited 3]")
        #expect(screen?.contains("no host is serving") == true, "\(screen ?? "")")
        #expect(screen?.contains("bridge-inspector demo") == true, "\(screen ?? "")")
    }

    @Test("TERM=dumb: one line says the terminal cannot show the inspector and names tail --follow with the host's socket; exit 64, nothing drawn")
    func dumbTerminal() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { host.stop() }
        let terminal = try TmuxSession([binary, "--socket", host.socket], environment: ["TERM": "dumb"])
        defer { terminal.kill() }
        let screen = try #require(await terminal.waitFor("[exited 64]"))
        #expect(screen.contains("this terminal cannot show the inspector (TERM=dumb cannot move the cursor)"), "\(screen)")
        // The line names the command that works here, with the socket the inspector would have used.
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains("bridge-inspector tail --follow --socket \(host.socket)"), "\(screen)")
        // Nothing of the inspector was drawn: no box, no status line, no escape debris.
        for drawn in ["┌", "─", "Messages", "lastError", "\u{1B}", "[?1049"] { #expect(!screen.contains(drawn), "\(drawn) in:\n\(screen)") }
    }

    @Test("TERM=dumb: demo refuses before starting its host, naming `host` plus `tail --follow`; exit 64, no host process, no socket, nothing drawn")
    func dumbTerminalDemo() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("d.sock")
        let terminal = try TmuxSession([binary, "demo", "--socket", socket], environment: ["TERM": "dumb"])
        defer {
            terminal.kill()
            for pid in hostProcesses(mentioning: socket) { sendSignal(SIGKILL, to: pid) }
        }
        let screen = try #require(await terminal.waitFor("[exited 64]"))
        let joined = screen.replacingOccurrences(of: "\n", with: "")
        #expect(joined.contains("this terminal cannot show the inspector (TERM=dumb cannot move the cursor)"), "\(screen)")
        #expect(joined.contains("`bridge-inspector host --name demo`") && joined.contains("`bridge-inspector tail --follow --host demo`"), "\(screen)")
        // Refused before anything started: the child host never ran.
        #expect(hostProcesses(mentioning: socket).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: socket))
        for drawn in ["┌", "─", "Messages", "\u{1B}", "[?1049"] { #expect(!screen.contains(drawn), "\(drawn) in:\n\(screen)") }
    }

    @Test("TERM=dumb: open FILE refuses the viewer and names `open --check FILE`; exit 64, nothing drawn")
    func dumbTerminalOpen() async throws {
        // A real recording, so only the terminal can be the reason to refuse.
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { host.stop() }
        let file = host.directory.file("session.jsonl")
        let recorder = try host.start(["record", file], binary: binary)
        defer { recorder.kill() }
        #expect(await waitUntil(timeout: .seconds(20)) { ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").contains("\"kind\":\"snapshot\"") })
        recorder.signal(SIGTERM)
        #expect(await recorder.waitForExit() == 0, "\(recorder.standardError)")
        let check = try await runCLI(["open", "--check", file], binary: binary)
        #expect(check.status == 0, "\(check)")

        let terminal = try TmuxSession([binary, "open", file], environment: ["TERM": "dumb"])
        defer { terminal.kill() }
        let screen = try #require(await terminal.waitFor("[exited 64]"))
        let joined = screen.replacingOccurrences(of: "\n", with: "")
        #expect(joined.contains("this terminal cannot show the inspector (TERM=dumb cannot move the cursor)"), "\(screen)")
        #expect(joined.contains("`bridge-inspector open --check \(file)`"), "\(screen)")
        for drawn in ["┌", "─", "Messages", "recording (read-only)", "\u{1B}", "[?1049"] { #expect(!screen.contains(drawn), "\(drawn) in:\n\(screen)") }
    }

    @Test("attached to a host: the panes show lastError, pending requests and the busy slot; keys answer a request, complete the slot and fire an event")
    func attachAndAct() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { host.stop() }
        let terminal = try TmuxSession([binary, "--socket", host.socket])
        defer { terminal.kill() }

        let first = await terminal.waitFor("connected", "nfc-1", "Failed to decode message", "cap-1")
        #expect(first?.contains("document") == true, "the slots pane names the busy document slot")

        // Answer nfc-1: filter the log down to its request, then r, then Enter sends success.
        try terminal.press("f")
        try terminal.type("id:nfc-1 type:request")
        try terminal.press("Enter")
        try terminal.press("r")
        await terminal.waitFor("Enter send", "nfc-1")
        try terminal.press("Enter")
        #expect(await host.waitForPending { !$0.contains("nfc-1") })
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("nfc-1") != nil })
        let answer = (host.receivedResponse("nfc-1")?["message"] as? [String: Any])?["payload"] as? [String: Any]
        #expect(answer?["status"] as? String == "success")
        try terminal.press("Escape")

        // Complete the busy document slot: c opens the dialog, Enter sends its first result.
        try terminal.press("c")
        await terminal.waitFor("cap-1", "Enter send")
        try terminal.press("Enter")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("cap-1") != nil })
        #expect(try host.state().slots.first { $0.kind == .document }?.activeRequest == nil)

        // Fire an event: e, a name, Enter. The journey receives it.
        try terminal.press("e")
        await terminal.waitFor("Enter send")
        try terminal.press("C-u")
        try terminal.type("host.ping")
        try terminal.press("Enter")
        #expect(await waitUntil(timeout: .seconds(60)) {
            host.journeyEntries.contains {
                $0["kind"] as? String == "received"
                    && (($0["message"] as? [String: Any])?["payload"] as? [String: Any])?["action"] as? String == "host.ping"
            }
        }, "journey log: \(host.journeyEntries)")

        // The action log lists all three, and q quits with status 0 leaving the host running.
        try terminal.press("A")
        await terminal.waitFor("host.ping", "nfc-1", "cap-1")
        try terminal.press("Escape", "q")
        #expect(await terminal.exitStatus() == 0, "\(terminal.screen())")
        #expect(host.process.isRunning)
    }

    @Test("\"remember\" in the respond dialog makes a reply rule that answers the next request by itself, marked R")
    func rememberMakesARule() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: """
            {"name": "twice", "steps": [
              {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-1", "timeoutMs": 600000, "label": "first"}},
              {"awaitResponse": {"label": "first"}},
              {"wait": 300},
              {"send": {"payload": {"action": "nfc.read"}, "correlationId": "nfc-2", "timeoutMs": 600000}},
              {"wait": 600000}
            ]}
            """)
        defer { host.stop() }
        let terminal = try TmuxSession([binary, "--socket", host.socket])
        defer { terminal.kill() }
        await terminal.waitFor("connected", "nfc-1")

        // r on the only pending request (it opens on the data field); Tab to "remember"; → once:
        // "and the next 1 like it".
        try terminal.press("r")
        await terminal.waitFor("Respond to nfc.read", "no, just this one")
        try terminal.press("Tab", "Tab", "Tab", "Tab", "Right")
        await terminal.waitFor("and the next 1 like it")
        try terminal.press("Enter")

        // nfc-2 comes only after nfc-1 is answered, and nobody presses a key for it.
        #expect(await waitUntil(timeout: .seconds(15)) { host.receivedResponse("nfc-2") != nil }, "\(terminal.screen())")
        #expect(host.receivedResponse("nfc-1") != nil)
        let ruled = try await host.run(["tail", "--json", "--filter", "is:rule"], binary: binary)
        #expect(ruled.lines.count == 1, "\(ruled)")
        #expect(ruled.lines.first?.contains("nfc-2") == true)
        try terminal.press("R")
        await terminal.waitFor("Reply rules: 1 (1 hit)", "nfc.read#1", "used up")
        try terminal.press("Escape", "q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test("x cancels a BUSY slot after asking (Enter sends the prefilled reason); the screen redraws to a new size; untrusted text is shown inert")
    func cancelSlotAndResize() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: """
            {"name": "hostile", "steps": [
              {"send": {"payload": {"action": "camera.document.capture"}, "correlationId": "cap-1", "timeoutMs": 600000}},
              {"send": {"payload": {"action": "evil\\u001b[2J\\u001b]0;pwned\\u0007.action"}, "correlationId": "evil-1", "timeoutMs": 600000}},
              {"wait": 600000}
            ]}
            """)
        defer { host.stop() }
        let terminal = try TmuxSession([binary, "--socket", host.socket], width: 120, height: 36)
        defer { terminal.kill() }
        let screen = try #require(await terminal.waitFor("connected", "cap-1", "evil-1"))
        // The escape sequences arrive as visible placeholders, never as terminal control.
        #expect(screen.contains("connected"), "the screen was not cleared by the journey's text")
        #expect(!screen.contains("\u{1B}"))

        try terminal.press("x")
        await terminal.waitFor("Cancel the document capture cap-1", "Cancelled from the inspector")
        try terminal.press("Enter")
        #expect(await waitUntil(timeout: .seconds(60)) { host.receivedResponse("cap-1") != nil })
        let payload = (host.receivedResponse("cap-1")?["message"] as? [String: Any])?["payload"] as? [String: Any]
        #expect(payload?["status"] as? String == "cancelled")

        try terminal.resize(width: 80, height: 24)
        // Waited for whole: under load tmux can show a frame half drawn (the status line, then
        // blank rows), which fits 80 columns but is not yet the layout.
        let small = try #require(await terminal.waitFor("the 80-column layout") { screen in
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return rows.count >= 24 && screen.contains("connected") && screen.contains("evil-1") && rows.allSatisfy { $0.count <= 80 }
        })
        #expect(small.contains("evil-1"))
        try terminal.resize(width: 160, height: 40)
        await terminal.waitFor("the 160-column layout") { $0.split(separator: "\n").contains { $0.count > 120 } }
        try terminal.press("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test("when the host goes away the inspector says so and reattaches to a new host on the same socket")
    func hostRestart() async throws {
        let first = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { first.stop() }
        let terminal = try TmuxSession([binary, "--socket", first.socket])
        defer { terminal.kill() }
        await terminal.waitFor("connected", "nfc-1")

        first.process.signal(SIGTERM)
        #expect(await first.process.waitForExit() == 0)
        await terminal.waitFor("DISCONNECTED")

        let second = try BinaryProcess(
            ["host", "--profile", examplePath("profiles/demo.json"), "--scenario", examplePath("scenarios/demo.json"), "--socket", first.socket],
            binary: binary, stdin: .closed)
        defer { second.kill() }
        let back = await terminal.waitFor("the reattached host", timeout: .seconds(30)) { $0.contains("connected") && !$0.contains("DISCONNECTED") }
        #expect(back?.contains("pid \(second.pid)") == true || back?.contains("\(second.pid)") == true, "\(back ?? "")")
        try terminal.press("q")
        #expect(await terminal.exitStatus() == 0)
    }

    @Test("open shows a recording read-only in the same panes; sending is refused with a message")
    func openRecording() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: scriptingHeldScenario)
        defer { host.stop() }
        let file = host.directory.file("session.jsonl")
        let recorded = try await host.run(["record", file, "--duration", "2"], binary: binary)
        #expect(recorded.status == 0, "\(recorded)")

        let terminal = try TmuxSession([binary, "open", file])
        defer { terminal.kill() }
        await terminal.waitFor("recording (read-only)", "nfc-1", "cap-1", "Failed to decode message")
        try terminal.press("r")
        await terminal.waitFor("nothing can be sent")
        try terminal.press("q")
        #expect(await terminal.exitStatus() == 0)
    }
}
