import Foundation
import Testing

/// docs/cli.md and the generated help agree, and shell completions are generated.
@Suite("Scripting: help and docs/cli.md")
struct ScriptingHelpTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    static let subcommands = [
        "inspect", "demo", "host", "hosts", "snapshot", "tail", "wait-for", "respond", "event", "lifecycle", "slot", "auto-respond", "record", "open", "diff", "stats", "doctor", "contract", "version",
    ]

    @Test("docs/cli.md shows exactly what each subcommand's --help prints (docs/update-cli-help.sh regenerates it)", arguments: subcommands)
    func helpDocumented(subcommand: String) async throws {
        let docs = try String(contentsOf: packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let help = try await runCLI([subcommand, "--help"], binary: binary, environment: ["COLUMNS": "80"])
        #expect(help.status == 0, "\(help)")
        #expect(help.stdout.hasPrefix("OVERVIEW: "))
        let block = "```text\n$ bridge-inspector \(subcommand) --help\n" + help.stdout.trimmingCharacters(in: .newlines) + "\n```"
        #expect(docs.contains(block), "docs/cli.md is out of date for \(subcommand): run `swift build && docs/update-cli-help.sh`")
    }

    @Test("the top-level help lists every subcommand, and docs/cli.md has a section for each")
    func everySubcommandListed() async throws {
        let docs = try String(contentsOf: packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let help = try await runCLI(["--help"], binary: binary)
        for subcommand in Self.subcommands {
            #expect(help.stdout.contains("  \(subcommand)"), "\(subcommand) missing from --help")
            #expect(docs.contains("`bridge-inspector \(subcommand)"), "\(subcommand) missing from docs/cli.md")
        }
    }

    @Test("shell completion scripts are generated for bash, zsh and fish", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        let script = try await runCLI(["--generate-completion-script", shell], binary: binary)
        #expect(script.status == 0, "\(script)")
        #expect(script.stdout.contains("auto-respond"))
        #expect(script.stdout.contains("wait-for"))
    }
}
