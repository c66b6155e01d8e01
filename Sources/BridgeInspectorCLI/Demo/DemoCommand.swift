import ArgumentParser
import Foundation
import ThreadSupport

/// `bridge-inspector demo`: starts a demo host as a child process and attaches to it.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start a demo host in the background and attach the inspector to it.",
        discussion: """
            The quickest way to see the inspector at work, with nothing to set up. This starts \
            `bridge-inspector host` with the built-in demo (a host whose document capture is held \
            busy, requests nobody answers, a malformed message, and a steady trickle of traffic, \
            looping) as a child process, waits for its socket, and attaches to it.

            When you quit, the demo host is stopped too (SIGTERM, then SIGKILL if it does not \
            stop within a few seconds); it never outlives this command.

            To run a host in one terminal and inspect it from another, use `bridge-inspector \
            host` instead.
            """
    )

    @Option(name: .long, help: ArgumentHelp(
        "Serve the demo host's inspector on this socket path. Default: the per-user directory.", valueName: "path"), completion: Completions.anyFile)
    var socket: String?

    @Option(name: .customLong("journey-log"), help: ArgumentHelp(
        "Have the demo host write its journey log (JSON Lines) to this file.", valueName: "file"), completion: Completions.anyFile)
    var journeyLog: String?

    @Option(name: .customLong("inspect-via"), help: ArgumentHelp(
        "How the inspector sees the demo host: native, or public-api (as an app embedding GBG's GBGBridge is seen; docs/real-apps.md). Default: native.",
        valueName: "path"))
    var inspectVia: InspectionPath = .native

    @Option(help: ArgumentHelp(
        "Load the reply rules in this JSON file into the inspector, paused (as `inspect --rules`).", valueName: "file"), completion: Completions.jsonFile)
    var rules: String?

    @OptionGroup var mouse: MouseOption

    /// How long the child host gets to print its socket.
    static let startTimeout: Duration = .seconds(15)

    func run() async throws {
        let shared = try InspectCommand.sharedRules(rules)
        let mouse = mouse.enabled
        guard let executable = ExecutablePath.current() else {
            StandardStreams.printFailure("cannot find this program's own executable to start the demo host")
            throw ExitCode.failure
        }
        // A terminal that cannot show the inspector (TERM=dumb) is refused before the child host
        // starts; without a terminal the traffic is printed as lines instead (DemoAttach).
        if TerminalCheck.isInteractive {
            try TerminalCheck.requireFullScreen(
                instead: "run the demo host with `bridge-inspector host --name demo` and follow it from another terminal with "
                    + "`bridge-inspector tail --follow --host demo`")
        }
        var arguments = ["host", "--exit-on-stdin-eof", "--name", "demo"]
        if let socket { arguments += ["--socket", socket] }
        if let journeyLog { arguments += ["--journey-log", journeyLog] }
        if inspectVia != .native { arguments += ["--inspect-via", inspectVia.rawValue] }

        // Signals are watched before the child exists, so none can be lost while it starts:
        // SIGINT/SIGTERM stop the child, whatever the attach is doing.
        let stopRequested = StopRequest()
        let started = StartedChild()
        let signals = SignalWatcher { _ in
            stopRequested.set()
            started.child?.stop()
            started.attach?.cancel()
        }
        let child: ChildHost
        do {
            child = try ChildHost(executable: executable, arguments: arguments)
        } catch {
            signals.cancel()
            StandardStreams.printFailure("\(error)")
            throw ExitCode.failure
        }
        let attach = Task { () throws -> Void in
            guard let socketPath = await Self.socketPath(of: child) else {
                throw DemoError(message: "the demo host did not start: it \(child.isRunning ? "printed no socket within \(Self.startTimeout)" : child.exitDescription)"
                    + Self.childErrorSuffix(child))
            }
            try await DemoAttach.run(socketPath: socketPath, sharedRules: shared, mouse: mouse)
        }
        started.set(child: child, attach: attach)
        if stopRequested.isSet {
            child.stop()
            attach.cancel()
        }
        defer {
            signals.cancel()
            child.stop()
        }
        do {
            try await attach.value
        } catch is CancellationError {
            return
        } catch let failure as DemoError {
            StandardStreams.printFailure("\(failure.message)")
            throw ExitCode.failure
        } catch {
            StandardStreams.printFailure("\(error)")
            throw ExitCode.failure
        }
        // The attach ended by itself: if the host went away on its own, say so.
        if !stopRequested.isSet, child.waitForExit(timeout: .milliseconds(200)) {
            StandardStreams.printFailure("the demo host stopped unexpectedly: it \(child.exitDescription)" + Self.childErrorSuffix(child))
            throw ExitCode.failure
        }
    }

    private static func socketPath(of child: ChildHost) async -> String? {
        await DedicatedThread.run(name: "bridge-inspector.demo-start") {
            child.waitForLine(prefix: "socket: ", timeout: startTimeout)
        }
    }

    private static func childErrorSuffix(_ child: ChildHost) -> String {
        _ = child.waitForExit(timeout: .milliseconds(500))
        let text = child.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : ". Its output:\n" + text
    }
}
