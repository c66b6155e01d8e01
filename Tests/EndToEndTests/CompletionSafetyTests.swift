import Foundation
import TestSupport
import Testing

/// A journey whose pending requests carry ids a shell would expand or run, beside one plain id.
/// Before issue 24, pressing Tab after `respond` in bash created `pwned-1` to `pwned-3` (bash's
/// `compgen -W` expands every candidate) and offered `x$((6*7))` as `x42`.
private let hostileIds = [
    "$(>pwned-1)", "`>pwned-2`", "$(touch${IFS}pwned-3)", "x$((6*7))", "a;>pwned-4", "~root", "{a,b}", "urn:x", "web-4fd7-91",
]

private let hostileIdScenario: String = {
    let steps = hostileIds.map { id -> String in
        let quoted = String(decoding: (try? JSONEncoder().encode(id)) ?? Data(), as: UTF8.self)
        return #"{"send": {"payload": {"action": "nfc.read"}, "correlationId": \#(quoted), "timeoutMs": 600000}}"#
    }
    return #"{"name": "hostile-ids", "steps": ["# + steps.joined(separator: ", ") + #", {"wait": 600000}]}"#
}()

/// Issue 24, point 1: nothing a host sends is ever evaluated by a shell. Correlation ids are
/// chosen by the journey, and `respond <Tab>` offers them: only ids made of characters no
/// shell treats specially are offered, so bash's completion script can expand nothing.
@Suite("Shell completion never evaluates what a host sends", .serialized)
struct CompletionSafetyTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// A host whose journey has sent every hostile id, all pending.
    private func hostileHost() async throws -> ScriptedHost {
        let host = try await ScriptedHost(binary: binary, scenario: hostileIdScenario)
        let all = await host.waitForPending(timeout: .seconds(30)) { Set($0).isSuperset(of: hostileIds) }
        if !all { host.stop() }
        try #require(all, "the journey's requests never all became pending")
        return host
    }

    /// The hostile host, and a folder holding bash's generated completion script
    /// (`completion.bash`) and an empty `cwd/` for bash to run in.
    private func hostileHostAndBash() async throws -> (ScriptedHost, TemporaryDirectory) {
        let work = try TemporaryDirectory()
        let generated = try await runCLI(["--generate-completion-script", "bash"], binary: binary)
        try generated.stdout.write(toFile: work.file("completion.bash"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: work.file("cwd"), withIntermediateDirectories: true)
        return (try await hostileHost(), work)
    }

    @Test(
        "Tab after `respond` in an interactive bash creates no file and completes the one plain id",
        .requires(.tmux))
    func interactiveBash() async throws {
        let (host, work) = try await hostileHostAndBash()
        defer { host.stop() }
        let (script, cwd) = (work.file("completion.bash"), work.file("cwd"))

        let terminal = try TmuxSession(["bash", "--norc", "--noprofile", "-i"], width: 200, height: 30, environment: ["PS1": "$ "])
        defer { terminal.kill() }
        // The script registers the name `bridge-inspector`; the test's binary is a path.
        try terminal.type("cd \(cwd) && source \(script) && complete -o filenames -F _bridge-inspector \(binary) && echo ready")
        try terminal.press("Enter")
        try #require(await terminal.waitFor("ready\n$") != nil)
        try terminal.type("\(binary) respond --socket \(host.socket) ")
        try terminal.press("Tab")
        let completed = await terminal.waitFor("the plain id completed") { $0.contains("--socket \(host.socket) web-4fd7-91") }
        #expect(completed != nil)
        // bash expands the candidates before it shows any, so by now any file would be there.
        let created = (try? FileManager.default.contentsOfDirectory(atPath: cwd)) ?? []
        #expect(created == [], "pressing Tab created \(created)")
    }

    @Test("bash's completion function, run with the host's hostile ids, offers only the plain id and runs nothing")
    func bashCompletionFunction() async throws {
        let (host, work) = try await hostileHostAndBash()
        defer { host.stop() }
        let (script, cwd) = (work.file("completion.bash"), work.file("cwd"))
        // What bash does on Tab: COMP_* set, the function called, COMPREPLY read.
        let driver = """
            cd "$1" && source "$2" || exit 9
            COMP_WORDS=("$3" respond --socket "$4" "")
            COMP_CWORD=4
            COMP_LINE="$3 respond --socket $4 "
            COMP_POINT=${#COMP_LINE}
            _bridge-inspector "$3" "" "$4"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try SpawnedProcess.run(["/bin/bash", "-c", driver, "bash", cwd, script, binary, host.socket], timeout: 30)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.split(separator: "\n") == ["web-4fd7-91"], "offered: \(result.output)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: cwd)) ?? []) == [])
    }

    @Test("the completion helper, asked directly, leaves out every id holding a character some shell treats specially")
    func candidatesAreInert() async throws {
        let host = try await hostileHost()
        defer { host.stop() }
        for shell in ["bash", "zsh", "fish"] {
            let result = try await runCLI(
                ["---completion", "respond", "--", "positional@0", "4", "0", "bridge-inspector", "respond", "--socket", host.socket, ""],
                binary: binary, environment: ["SAP_SHELL": shell])
            // zsh's answers end with a blank pseudo-candidate that its script removes.
            let offered = result.stdout.split(separator: "\n").map(String.init).filter { $0 != " " }
            #expect(offered == ["web-4fd7-91"], "\(shell): \(result)")
        }
    }
}
