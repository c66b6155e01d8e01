import ArgumentParser
import CursesBackend
import Foundation
import InspectorClient
import InspectorTUI
import SocketSupport
import ThreadSupport

/// `bridge-inspector` with no subcommand: the interactive inspector.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Attach the interactive inspector to a running host (the default command).",
        discussion: """
            Attaches to the host named by --socket (or BRIDGE_INSPECTOR_SOCKET), to the host \
            named by --host, or to the only running host; offers a choice when several are \
            running. An app on a phone is reached over USB: forward its port with \
            `iproxy 9123 9123`, then run BRIDGE_INSPECTOR_TOKEN=T bridge-inspector --connect \
            127.0.0.1:9123 (the app prints that line in its console: `bridge-inspector: attach \
            over USB ...`). Nothing running? Start one with `bridge-inspector demo` or \
            `bridge-inspector host`.

            --host NAME stays attached across runs: when the app is run again (a new process, \
            a new socket) the inspector attaches to it by itself and marks the restart in the \
            log with both pids. Started before the app, it waits for it. Several running with \
            that name: the newest is taken (the status line says so). --host NAME.PID means \
            exactly that one process and is not followed.

            Inside, press ? for every key and q to quit; : runs a key by its name (:respond, \
            :filter EXPR, Tab completes) and K browses them all. z zooms the focused pane, m \
            marks a row (f is:marked lists the marked), w saves what the inspector holds as a \
            recording for `bridge-inspector open`, v shows the capabilities and what \
            capability.query would answer now, = compares the session with a recording. The mouse works too: click a pane or \
            a row, click the selected row again to open it, and scroll with the wheel; while \
            the mouse is on, Shift-drag selects text in most terminals (--no-mouse leaves the \
            mouse to the terminal). A terminal that cannot show it \
            (TERM=dumb, or a type terminfo does not know) gets one line saying so and the \
            `bridge-inspector tail --follow` command to use instead, and exit status 64.

            --compare FILE opens with the session compared with the recording FILE (the \
            "before"), as `bridge-inspector diff FILE` compares them: is this build answering as \
            the recorded one did? One row per difference (a changed status, a changed field with \
            its path, a missing, added or moved message, a latency change); Enter shows both \
            sides' messages, r compares again as the log grows, Esc goes to the live screen. A \
            FILE that cannot be read is exit status 5.
            """)

    @Option(name: .customLong("socket"), help: ArgumentHelp("The host's socket (default: $BRIDGE_INSPECTOR_SOCKET, or the only running host).", valueName: "path"), completion: Completions.anyFile)
    var socket: String?

    @Option(name: .customLong("host"), help: ArgumentHelp("Follow the host with this name across runs, waiting for it if need be; NAME.PID: exactly that process.", valueName: "name"), completion: Completions.hostNames)
    var host: String?

    @Option(name: .customLong("rules"), help: ArgumentHelp(
        "Also load the reply rules in this JSON file (the format of auto-respond --rules), paused: R lists them, space resumes one.",
        valueName: "file"), completion: Completions.jsonFile)
    var rules: String?

    @OptionGroup var tcp: TCPSelection

    @Flag(name: .customLong("read-only"), help: ArgumentHelp(
        "Watch only: nothing can be sent from this inspector (no responses, events, slot actions, breakpoints or rules), for pairing and demos; the keys that would send are left out of the footer and help."))
    var readOnly = false

    @Option(name: .customLong("compare"), help: ArgumentHelp(
        "Open with the session compared with this recording (the \"before\"); r in the view compares again as the log grows.", valueName: "file"),
        completion: Completions.recording)
    var compare: String?

    @OptionGroup var mouse: MouseOption

    /// The recording of `--compare FILE`, read before the screen starts: a file with nothing
    /// readable is refused (exit 5); one cut off is compared up to where it broke, with a warning.
    static func comparison(_ file: String?) throws -> (path: String, contents: Recording.Contents)? {
        guard let file else { return nil }
        let contents = RecordingPath.load(file)
        if contents.frames.isEmpty {
            StandardStreams.printFailure("--compare \(ScriptOutput.safe(file)): \(ScriptOutput.safe(contents.problem?.description ?? "nothing readable"))")
            throw ExitCode(ExitCodes.badRecording)
        }
        if let problem = contents.problem {
            StandardStreams.printError("warning: --compare \(ScriptOutput.safe(file)): \(ScriptOutput.safe(problem.description)); comparing what comes before it")
        }
        return (file, contents)
    }

    /// The rules of `--rules FILE` with the path to name on screen, read before anything else so
    /// a bad file is refused (exit 64) before the screen starts.
    static func sharedRules(_ file: String?) throws -> InteractiveInspector.SharedRules? {
        guard let file else { return nil }
        do {
            return (try ReplyRuleBook.read(file: file), file)
        } catch {
            StandardStreams.printFailure("--rules \(ScriptOutput.safe(file)): \(error)")
            StandardStreams.printError(
                "hint: " + (error.isInContent
                    ? "fix the file (the format is in `bridge-inspector auto-respond --help`), or leave out --rules"
                    : "give the path of a rules file, such as one saved by the inspector (rules.json in its state directory)"))
            throw ExitCode(ExitCodes.usage)
        }
    }

    func run() async throws {
        if readOnly, rules != nil {
            StandardStreams.printFailure("--rules and --read-only cannot be used together: a read-only inspector answers nothing")
            throw ExitCode(ExitCodes.usage)
        }
        let shared = try Self.sharedRules(rules)
        let comparison = try Self.comparison(compare)
        let readOnly = readOnly
        let mouse = mouse.enabled
        let directory = HostDirectory()
        // `--host NAME` (not NAME.PID, no explicit socket): follow that name across runs.
        let target = host.map(HostTarget.init(parsing:))
        if let target, target.follows, SocketEnvironment.explicitSocketPath(option: socket) == nil {
            guard TerminalCheck.isInteractive else {
                StandardStreams.printFailure("the inspector needs a terminal; for scripts use `bridge-inspector tail --follow --host \(ScriptOutput.shellWord(target.name))`")
                throw ExitCode(ExitCodes.usage)
            }
            try TerminalCheck.requireFullScreen(selection: "--host " + ScriptOutput.shellWord(target.name))
            let follower = HostFollower(target: target, directory: directory.discovery.directory)
            let first: HostFollower.Found?
            do {
                first = try follower.newest()
            } catch {
                StandardStreams.printFailure("\(error)")
                throw ExitCode(ExitCodes.noHost)
            }
            if let note = first?.note { StandardStreams.printError("note: \(note)") }
            let path = first?.socket.path ?? ""
            try await Self.onUIThread {
                var inspector = InteractiveInspector(socketPath: path, follower: follower, sharedRules: shared)
                inspector.comparison = comparison
                inspector.readOnly = readOnly
                inspector.mouse = mouse
                try inspector.run()
            }
            return
        }
        var socketPath: String
        let endpoint: InspectorEndpoint?
        do {
            endpoint = try tcp.endpoint(socket: socket, host: host)
        } catch {
            StandardStreams.printFailure("\(error)")
            throw ExitCode(ExitCodes.usage)
        }
        do {
            if let endpoint {
                socketPath = endpoint.description
            } else {
                socketPath = try directory.resolveSocket(option: socket, hostName: host)
            }
        } catch HostSelectionError.several {
            guard TerminalCheck.isInteractive, TerminalCheck.unusableReason == nil else {
                StandardStreams.printFailure("\(HostSelectionError.several((try? directory.list(greet: false))?.filter(\.isLive).map { "\($0.name) (pid \($0.pid)): \($0.socketPath)" } ?? []))")
                throw ExitCode(ExitCodes.usage)
            }
            guard let chosen = try Self.pick(from: directory.list().filter(\.isLive)) else { return }
            socketPath = chosen
        } catch {
            StandardStreams.printFailure("\(error)")
            throw ExitCode(ExitCodes.noHost)
        }
        guard TerminalCheck.isInteractive else {
            StandardStreams.printFailure("the inspector needs a terminal; for scripts use `bridge-inspector tail`, `snapshot` or `respond`")
            throw ExitCode(ExitCodes.usage)
        }
        if let connect = tcp.connect, endpoint != nil {
            try TerminalCheck.requireFullScreen(selection: "--connect " + ScriptOutput.shellWord(InspectorEndpoint.redacted(connect)) + (tcp.token == nil ? "" : " --token …"))
        } else {
            try TerminalCheck.requireFullScreen(selection: "--socket " + ScriptOutput.shellWord(socketPath))
        }
        // Once attached, the inspector waits for a host that goes away to come back; a socket
        // nobody serves at the start is a mistake to say, not a host to wait for.
        do {
            try InspectorSession(
                endpoint: endpoint ?? .unixSocket(path: socketPath), subscribe: false, clientName: "bridge-inspector probe", timeout: 5
            ).close()
        } catch let error as InspectorClientError {
            if case .noHost = error {
                StandardStreams.printFailure("\(error)")
                throw ExitCode(ExitCodes.noHost)
            }
            if case .tokenRefused = error {
                StandardStreams.printFailure("\(error)")
                throw ExitCode(ExitCodes.refused)
            }
            // Anything else (a busy host, too many clients) the inspector shows and retries.
        }
        let path = socketPath
        try await Self.onUIThread {
            var inspector = InteractiveInspector(socketPath: path, endpoint: endpoint, sharedRules: shared)
            inspector.comparison = comparison
            inspector.readOnly = readOnly
            inspector.mouse = mouse
            try inspector.run()
        }
    }

    /// Shows the host picker; returns the chosen socket, or `nil` when the person gave up.
    static func pick(from hosts: [HostListing]) throws -> String? {
        let screen = try CursesScreen()
        defer { screen.end() }
        let loop = EventLoop(screen: screen)
        var picker = HostPicker(hosts: hosts)
        while picker.chosen == nil, !picker.cancelled {
            screen.draw(picker.render(size: screen.size))
            for case .key(let key) in loop.next(timeout: .milliseconds(250)).events { picker.handle(key) }
        }
        return picker.chosen
    }

    /// Runs `body` on a thread of its own (curses wants one thread) and waits for it.
    static func onUIThread(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await DedicatedThread.run(name: "bridge-inspector.ui", body)
    }
}
