import ArgumentParser

/// `bridge-inspector host`: a real bridge host with a simulated web journey, serving the
/// inspector on a Unix socket.
struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Run a simulated GBGBridge host and web journey, and serve the inspector.",
        discussion: """
            The host is a real BridgeHost, the same library an app embeds, set up from a host \
            profile (its capture slots and custom capabilities). The web journey is simulated \
            in this process from a journey scenario: it sends requests and events to the host and \
            receives the host's messages through the same JavaScript delivery a WebView uses.

            The first line on standard output says where inspectors can attach:

              socket: /run/user/1000/bridge-inspector/demo.12345.sock

            Without options this runs the built-in demo (examples/profiles/demo.json and the \
            looping examples/scenarios/demo.json). Ctrl-C or SIGTERM stops it and removes the \
            socket. Bad profile or scenario files are reported with the file, the place in it and \
            what was expected, and nothing is started. Both formats are described in \
            docs/scenarios.md.

            Examples:
              bridge-inspector host
              bridge-inspector host --profile examples/profiles/minimal.json \\
                  --scenario examples/scenarios/capture-flow.json \\
                  --journey-log journey.jsonl --exit-when-done
            """
    )

    @Option(name: .long, help: ArgumentHelp("The host profile to use (JSON). Default: the built-in demo profile.", valueName: "file"))
    var profile: String?

    @Option(name: .long, help: ArgumentHelp("The journey scenario to run (JSON). Default: the built-in demo scenario.", valueName: "file"))
    var scenario: String?

    @Option(name: .long, help: ArgumentHelp(
        "The host name inspectors show; the socket file is named after it. Default: the profile's name.", valueName: "name"))
    var name: String?

    @Option(name: .long, help: ArgumentHelp(
        "Serve the inspector on this socket path. Default: $BRIDGE_INSPECTOR_SOCKET when set, else <name>.<pid>.sock in the per-user directory ($XDG_RUNTIME_DIR/bridge-inspector or /tmp/bridge-inspector-<uid>).",
        valueName: "path"))
    var socket: String?

    @Option(name: .customLong("journey-log"), help: ArgumentHelp(
        "Write everything the journey sends, receives and gives up on to this file, one JSON object per line.", valueName: "file"))
    var journeyLog: String?

    @Flag(name: .customLong("exit-when-done"), help: "Exit when the scenario ends (it must not loop). Without it the host keeps running until stopped.")
    var exitWhenDone = false

    @Flag(name: .customLong("exit-on-stdin-eof"), help: ArgumentHelp("Exit when standard input is closed (used by `demo` for its child host).", visibility: .hidden))
    var exitOnStdinEOF = false

    func run() async throws {
        let options = HostOptions(
            profilePath: profile, scenarioPath: scenario, name: name, socketPath: socket, journeyLogPath: journeyLog,
            exitWhenDone: exitWhenDone, exitOnStdinEOF: exitOnStdinEOF)
        let status = await HostRunner(options: options).run()
        if status != 0 { throw ExitCode(status) }
    }
}
