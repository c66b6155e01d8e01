import Foundation
import TestSupport
import Testing

/// Issue 27, trap 8: `bridge-inspector --host <Tab>` (the main command, `inspect`, run without
/// its name) listed the subcommands instead of the running hosts, since the generated bash
/// script knew only the subcommands at the top level.
@Suite("Completing the main command's options")
struct MainCommandCompletionTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// What bash's completion function offers for `words` (the last one being completed), with
    /// the script the binary generates, run as bash runs it on Tab.
    func offered(_ words: [String], environment: [String: String?]) async throws -> [String] {
        let work = try TemporaryDirectory()
        let generated = try await runCLI(["--generate-completion-script", "bash"], binary: binary)
        try generated.stdout.write(toFile: work.file("completion.bash"), atomically: true, encoding: .utf8)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let driver = """
            source "$1" || exit 9
            COMP_WORDS=("$2" \(quoted))
            COMP_CWORD=\(words.count)
            COMP_LINE="$2 \(words.joined(separator: " "))"
            COMP_POINT=${#COMP_LINE}
            _bridge-inspector "$2" "\(words.last ?? "")" "\(words.dropLast().last ?? "$2")"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment {
            if let value { env[key] = value } else { env.removeValue(forKey: key) }
        }
        let result = try SpawnedProcess.run(
            ["/bin/bash", "-c", driver, "bash", work.file("completion.bash"), binary], environment: env, timeout: 30)
        #expect(result.status == 0, "\(result.errors)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test("`bridge-inspector --host <Tab>` offers the running hosts' names, as `inspect --host` does")
    func hostOfTheMainCommand() async throws {
        let directory = try TemporaryDirectory()
        let environment: [String: String?] = ["BRIDGE_INSPECTOR_SOCKET_DIR": directory.path, "BRIDGE_INSPECTOR_SOCKET": nil]
        let host = try BinaryProcess(["host", "--name", "main-completion-app"], binary: binary, environment: environment, stdin: .closed)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ") != nil, "\(host.standardError)")

        #expect(try await offered(["--host", ""], environment: environment) == ["main-completion-app"])
        #expect(try await offered(["inspect", "--host", ""], environment: environment) == ["main-completion-app"])
        // The top level still offers the subcommands, and the main command's options after one.
        let top = try await offered([""], environment: environment)
        #expect(top.contains("demo") && top.contains("tail"), "\(top)")
        let next = try await offered(["--host", "main-completion-app", "--"], environment: environment)
        #expect(next.contains("--socket") && next.contains("--rules"), "\(next)")
    }

    /// A running host named `main-completion-app` in a private socket directory (removed when
    /// the directory is released), and the environment that finds it.
    func completionHost() async throws -> (BinaryProcess, TemporaryDirectory, [String: String]) {
        let directory = try TemporaryDirectory()
        let host = try BinaryProcess(
            ["host", "--name", "main-completion-app"], binary: binary,
            environment: ["BRIDGE_INSPECTOR_SOCKET_DIR": directory.path, "BRIDGE_INSPECTOR_SOCKET": nil], stdin: .closed)
        let started = await host.waitForLine(prefix: "socket: ") != nil
        if !started { host.kill() }
        try #require(started, "\(host.standardError)")
        return (host, directory, ["BRIDGE_INSPECTOR_SOCKET_DIR": directory.path])
    }

    /// Types `line` into an interactive `shell` in a real terminal, presses Tab, and waits for
    /// the line to read `expected`. `setup` (typed first) loads the generated script; a line of
    /// its own reading `ready` says it has.
    func completeInShell(_ shell: [String], setup: String, line: String, expected: String, environment: [String: String]) async throws {
        let home = try TemporaryDirectory()
        var environment = environment
        environment["HOME"] = home.path
        // The completion functions run `bridge-inspector`: the binary under test, by its name.
        environment["PATH"] = (binary as NSString).deletingLastPathComponent + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let terminal = try TmuxSession(shell, width: 160, height: 20, environment: environment)
        defer { terminal.kill() }
        try terminal.type(setup + "; echo re''ady")
        try terminal.press("Enter")
        try #require(await terminal.waitFor("the script loaded") { $0.split(separator: "\n").contains("ready") } != nil)
        try terminal.type(line)
        try terminal.press("Tab")
        #expect(await terminal.waitFor("“\(expected)” completed") { $0.contains(expected) } != nil)
    }

    @Test("zsh: `bridge-inspector --host <Tab>` completes the running host's name", .requires(.tmux), .requires(.zsh))
    func zshHostOfTheMainCommand() async throws {
        let zsh = try ExternalTool.zsh.require()
        let (host, sockets, environment) = try await completionHost()
        defer { host.kill(); _ = sockets }
        let functions = try TemporaryDirectory()
        let generated = try await runCLI(["--generate-completion-script", "zsh"], binary: binary)
        try generated.stdout.write(toFile: functions.file("_bridge-inspector"), atomically: true, encoding: .utf8)
        let setup = "fpath=(\(functions.path) $fpath); autoload -U compinit; compinit -u -D"
        try await completeInShell([zsh, "-f"], setup: setup, line: "bridge-inspector --host ", expected: "bridge-inspector --host main-completion-app", environment: environment)
        try await completeInShell([zsh, "-f"], setup: setup, line: "bridge-inspector inspect --host ", expected: "bridge-inspector inspect --host main-completion-app", environment: environment)
    }

    @Test("fish: `bridge-inspector --host <Tab>` completes the running host's name", .requires(.tmux), .requires(.fish))
    func fishHostOfTheMainCommand() async throws {
        let fish = try ExternalTool.fish.require()
        let (host, sockets, environment) = try await completionHost()
        defer { host.kill(); _ = sockets }
        let functions = try TemporaryDirectory()
        let generated = try await runCLI(["--generate-completion-script", "fish"], binary: binary)
        try generated.stdout.write(toFile: functions.file("bridge-inspector.fish"), atomically: true, encoding: .utf8)
        let setup = "source \(functions.file("bridge-inspector.fish"))"
        try await completeInShell([fish, "--no-config"], setup: setup, line: "bridge-inspector --host ", expected: "bridge-inspector --host main-completion-app", environment: environment)
        try await completeInShell([fish, "--no-config"], setup: setup, line: "bridge-inspector inspect --host ", expected: "bridge-inspector inspect --host main-completion-app", environment: environment)
    }

    @Test("each shell's script is swift-argument-parser's with one hook that hands an option-first line to the main command")
    func scriptShape() async throws {
        let bash = try await runCLI(["--generate-completion-script", "bash"], binary: binary)
        #expect(bash.status == 0)
        #expect(bash.stdout.contains("\"_bridge-inspector_inspect\"\n        return"), "\(bash.stdout.prefix(3000))")
        let equals = try await runCLI(["--generate-completion-script=bash"], binary: binary)
        #expect(equals.stdout == bash.stdout)
        let zsh = try await runCLI(["--generate-completion-script", "zsh"], binary: binary)
        #expect(zsh.status == 0 && zsh.stdout.contains("#compdef bridge-inspector"), "\(zsh)")
        #expect(zsh.stdout.contains("        _bridge-inspector_inspect\n        return"), "\(zsh.stdout.prefix(3000))")
        let fish = try await runCLI(["--generate-completion-script", "fish"], binary: binary)
        #expect(fish.status == 0 && fish.stdout.contains("set unparsed_tokens $unparsed_tokens[1] inspect $unparsed_tokens[2..]"), "\(fish.stdout.prefix(3000))")
    }
}
