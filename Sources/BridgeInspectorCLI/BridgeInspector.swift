import ArgumentParser

/// The `bridge-inspector` command. Each subcommand lives in its own file; this is the one place
/// that lists them.
@main
struct BridgeInspector: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge-inspector",
        abstract: "Debug GBGBridge hosts: run a simulated host and web journey, and inspect running hosts.",
        discussion: """
            GBGBridge carries messages between a native host app and a web journey running in a \
            WebView. bridge-inspector runs a real bridge host with a simulated web journey, and \
            lets you watch and steer any host that embeds the inspector agent: its traffic, its \
            pending requests, its capture slots and its lastError.

            New here? Run `bridge-inspector demo`: it starts a demo host in the background and \
            attaches to it. Run `bridge-inspector help <subcommand>` for the details of each one.
            """,
        version: VersionCommand.line,
        subcommands: [
            InspectCommand.self,
            DemoCommand.self,
            HostCommand.self,
            HostsCommand.self,
            SnapshotCommand.self,
            TailCommand.self,
            WaitForCommand.self,
            RespondCommand.self,
            EventCommand.self,
            LifecycleCommand.self,
            SlotCommand.self,
            BreakCommand.self,
            BreakpointsCommand.self,
            FaultCommand.self,
            FaultsCommand.self,
            FaultScenarioCommand.self,
            HeldCommand.self,
            ReleaseCommand.self,
            AnswerCommand.self,
            DropCommand.self,
            InjectCommand.self,
            ReplayCommand.self,
            RerunCommand.self,
            AutoRespondCommand.self,
            RecordCommand.self,
            ExportCommand.self,
            RedactCommand.self,
            DiffCommand.self,
            StatsCommand.self,
            DoctorCommand.self,
            OpenCommand.self,
            ContractCommand.self,
            VersionCommand.self,
        ],
        defaultSubcommand: InspectCommand.self
    )

    /// Runs the command line; a completion script is generated here first, so that bash's
    /// completes the main command's options too (``Completions/completionScript(arguments:generate:)``).
    static func main() async {
        if let script = Completions.completionScript(arguments: Array(CommandLine.arguments.dropFirst()), generate: completionScript(for:)) {
            print(script)
            return
        }
        await main(nil)
    }
}
