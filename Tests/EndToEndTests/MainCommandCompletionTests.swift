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

    @Test("the bash script is swift-argument-parser's with one hook in its top-level function; other shells' are unchanged")
    func scriptShape() async throws {
        let bash = try await runCLI(["--generate-completion-script", "bash"], binary: binary)
        #expect(bash.status == 0)
        #expect(bash.stdout.contains("\"_bridge-inspector_inspect\"\n        return"), "\(bash.stdout.prefix(3000))")
        let equals = try await runCLI(["--generate-completion-script=bash"], binary: binary)
        #expect(equals.stdout == bash.stdout)
        let zsh = try await runCLI(["--generate-completion-script", "zsh"], binary: binary)
        #expect(zsh.status == 0 && zsh.stdout.contains("#compdef bridge-inspector"), "\(zsh)")
    }
}
