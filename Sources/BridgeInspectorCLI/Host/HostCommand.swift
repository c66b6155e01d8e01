import ArgumentParser
import TerminalUI

/// `bridge-inspector host`: a real bridge host with a simulated web journey, or a real one in a
/// browser (`--serve`), serving the inspector on a Unix socket.
struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Run a GBGBridge host with a simulated web journey, or serve a real one to a browser, and serve the inspector.",
        discussion: """
            The host is a real BridgeHost, the same library an app embeds, set up from a host \
            profile (its capture slots and custom capabilities). The web journey is simulated \
            in this process from a journey scenario: it sends requests and events to the host and \
            receives the host's messages through the same JavaScript delivery a WebView uses.

            The first line on standard output says where inspectors can attach:

              socket: /run/user/1000/bridge-inspector/demo.12345.sock

            With --listen-tcp PORT the inspector is also served on 127.0.0.1:PORT, the way an app \
            on a phone is reached over USB: the next line on standard output is `tcp: \
            127.0.0.1:PORT`, and standard error gets one line with the token clients must give \
            (BRIDGE_INSPECTOR_TOKEN=T bridge-inspector --connect 127.0.0.1:PORT). See docs/real-apps.md.

            Without options this runs the built-in demo (examples/profiles/demo.json and the \
            looping examples/scenarios/demo.json). Ctrl-C or SIGTERM stops it and removes the \
            socket. Bad profile or scenario files are reported with the file, the place in it and \
            what was expected, and nothing is started. Both formats are described in \
            docs/scenarios.md.

            With --serve DIR the journey is real instead: the host serves DIR on 127.0.0.1 \
            (--port, default a free one) and injects the bridge bootstrap at document start of \
            every HTML page, so the page in a desktop browser has \
            window.webkit.messageHandlers.gbgBridge and window.GBGBridge as in a WKWebView; its \
            messages travel over a WebSocket. The second line on standard output is the address \
            to open, with a secret token made for this run (as Jupyter does):

              serving: http://127.0.0.1:8787/?token=3q2-7wX...

            Only a browser that opened that URL can be the journey: other local programs and \
            pages are refused with 403, and the attached page is left alone. Each page load is a \
            fresh bridge context and gets host.ready. Only pages of that origin may connect; a \
            journey on its own dev server is allowed with --allow-origin (then --serve may be left \
            out) and includes, as its first script, the bootstrap script at the address with the \
            token the host prints. Slow or idle connections are closed. With --inspect-via public-api \
            Without --profile, a host-profile.json in DIR is the profile (its name names the \
            host). With --inspect-via public-api \
            the pages also run the inspector's page script, as an app's WKWebView does, and the \
            inspector sees what the host sends only through its reports. See docs/web-journeys.md.

            Examples:
              bridge-inspector host
              bridge-inspector host --profile examples/profiles/minimal.json \\
                  --scenario examples/scenarios/capture-flow.json \\
                  --journey-log journey.jsonl --exit-when-done
              bridge-inspector host --serve examples/web-journey --port 8787   # + its host-profile.json
              bridge-inspector host --port 8787 --allow-origin http://localhost:5173
              bridge-inspector host --inspect-via public-api     # seen as a GBGBridge app is
              bridge-inspector host --serve examples/web-journey --inspect-via public-api
              bridge-inspector host --listen-tcp 9123     # then: BRIDGE_INSPECTOR_TOKEN=T bridge-inspector --connect 127.0.0.1:9123
            """
    )

    @Option(name: .long, help: ArgumentHelp("The host profile to use (JSON). Default: with --serve DIR, DIR/host-profile.json when there is one; else the built-in demo profile.", valueName: "file"), completion: Completions.jsonFile)
    var profile: String?

    @Option(name: .long, help: ArgumentHelp("The journey scenario to run (JSON). Default: the built-in demo scenario.", valueName: "file"), completion: Completions.jsonFile)
    var scenario: String?

    @Option(name: .long, help: ArgumentHelp(
        "The host name inspectors show; the socket file is named after it. Default: the profile's name.", valueName: "name"))
    var name: String?

    @Option(name: .long, help: ArgumentHelp(
        "Serve the inspector on this socket path. Default: $BRIDGE_INSPECTOR_SOCKET when set, else <name>.<pid>.sock in the per-user directory ($BRIDGE_INSPECTOR_SOCKET_DIR; else on macOS /tmp/bridge-inspector-<uid>; on Linux $XDG_RUNTIME_DIR/bridge-inspector or /tmp/bridge-inspector-<uid>).",
        valueName: "path"), completion: Completions.anyFile)
    var socket: String?

    @Option(name: .customLong("journey-log"), help: ArgumentHelp(
        "Write everything the journey sends, receives and gives up on to this file, one JSON object per line.", valueName: "file"), completion: Completions.anyFile)
    var journeyLog: String?

    @Flag(name: .customLong("exit-when-done"), help: "Exit when the scenario ends (it must not loop). Without it the host keeps running until stopped.")
    var exitWhenDone = false

    @Flag(name: .customLong("wait-for-inspector"), help: ArgumentHelp(
        "Start the journey only once an inspector (the TUI, tail, record, ...) follows the host, so it sees every message from the first. Like node --inspect-brk."))
    var waitForInspector = false

    @Flag(name: .customLong("exit-on-stdin-eof"), help: ArgumentHelp("Exit when standard input is closed (used by `demo` for its child host).", visibility: .hidden))
    var exitOnStdinEOF = false

    @Option(name: .long, help: ArgumentHelp(
        "Serve the web journey in this directory to a browser on 127.0.0.1, with the bridge bootstrap injected into its pages, instead of simulating a journey.",
        valueName: "dir"), completion: .directory)
    var serve: String?

    @Option(name: .long, help: ArgumentHelp("The port for --serve or --allow-origin on 127.0.0.1; 0 picks a free one. Default: 0.", valueName: "port"))
    var port: Int?

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp(
        "Also let pages of this origin (scheme://host[:port], such as a dev server's http://localhost:5173) connect to the bridge. Repeatable.",
        valueName: "origin"))
    var allowOrigin: [String] = []

    @Option(name: .customLong("inspect-via"), help: ArgumentHelp(
        "How the inspector sees the host: native (everything BridgeCore knows) or public-api (only GBGBridge's public API and the page script, as an app embedding GBG's GBGBridge is seen; see docs/real-apps.md). Default: native.",
        valueName: "path"))
    var inspectVia: InspectionPath = .native

    @Option(name: .customLong("listen-tcp"), help: ArgumentHelp(
        "Also serve the inspector on this TCP port of 127.0.0.1 (0: a free one), as an app on a phone does for `iproxy`; clients need the token logged on standard error. [ADDRESS:]PORT binds another address (loopback only, unless --allow-non-loopback).",
        valueName: "[address:]port"))
    var listenTCP: String?

    @Flag(name: .customLong("allow-non-loopback"), help: ArgumentHelp(
        "Let --listen-tcp bind an address other than loopback. Anyone on the network who learns the token can then drive the host."))
    var allowNonLoopback = false

    func validate() throws {
        if let listenTCP {
            guard HostOptions.parseListenTCP(listenTCP) != nil else {
                throw ValidationError("--listen-tcp takes PORT (0 to 65535) or ADDRESS:PORT, such as 9123 or 127.0.0.1:9123; got \(listenTCP.debugDescription)")
            }
        } else if allowNonLoopback {
            throw ValidationError("--allow-non-loopback only goes with --listen-tcp ADDRESS:PORT")
        }
        let web = serve != nil || !allowOrigin.isEmpty
        if web, scenario != nil {
            throw ValidationError("--scenario and --serve/--allow-origin cannot be used together: --scenario simulates the web journey, --serve runs a real one in a browser")
        }
        if web, exitWhenDone {
            throw ValidationError("--exit-when-done needs a scenario that ends; a journey in a browser has no end, so stop the host with Ctrl-C")
        }
        if web, journeyLog != nil {
            throw ValidationError("--journey-log records the simulated journey; with --serve, watch the traffic in the inspector (and the browser's developer tools)")
        }
        if web, waitForInspector {
            throw ValidationError("--wait-for-inspector holds back a simulated journey; with --serve the page is the journey: attach the inspector first, then open the page")
        }
        if let port {
            guard web else { throw ValidationError("--port is for --serve or --allow-origin") }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 (a free port) or 1 to 65535, not \(port)") }
        }
    }

    func run() async throws {
        let besideJourney = HostOptions.profileBesideJourney(serveDirectory: serve, profilePath: profile)
        if let besideJourney {
            StandardStreams.printError(
                "bridge-inspector host: using the host profile \(Sanitizer.sanitize(besideJourney)) that sits beside the journey (--profile FILE chooses another).")
        }
        let options = HostOptions(
            profilePath: profile ?? besideJourney, scenarioPath: scenario, name: name, socketPath: socket, journeyLogPath: journeyLog,
            exitWhenDone: exitWhenDone, exitOnStdinEOF: exitOnStdinEOF, waitForInspector: waitForInspector, serveDirectory: serve, port: port,
            inspectionPath: inspectVia, allowedOrigins: allowOrigin, listenTCP: listenTCP.flatMap(HostOptions.parseListenTCP),
            allowNonLoopback: allowNonLoopback)
        let status = await HostRunner(options: options).run()
        if status != 0 { throw ExitCode(status) }
    }
}
