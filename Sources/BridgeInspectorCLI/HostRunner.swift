import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
import JourneySimulation
import JourneyWebSocket
import SocketSupport
import TerminalUI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `bridge-inspector host`: validates everything, then starts the host, the journey and
/// the inspector agent, and shuts them down cleanly.
@MainActor
struct HostRunner {
    /// Why the host stops.
    enum StopReason: Sendable {
        case signal(Int32)
        case scenarioFinished
        case standardInputClosed
    }

    /// How long a finished scenario's last responses get to arrive before `--exit-when-done` exits.
    static let drain: Duration = .milliseconds(500)

    let options: HostOptions

    /// Runs the host; returns the exit status.
    func run() async -> Int32 {
        // Output may go to a pipe whose reader is gone (a `demo` parent that was killed): a
        // write must then fail, not kill the host before it removes its socket.
        signal(SIGPIPE, SIG_IGN)

        if options.servesWebJourney { return await runWebJourney() }

        // 1. Validate everything before anything is visible from outside.
        let profile: HostProfile
        let scenario: JourneyScenario
        do {
            profile = try options.profilePath.map { path throws(SimulationInputError) in try HostProfile.load(path: path) } ?? BuiltInDemo.profile
            scenario = try options.scenarioPath.map { path throws(SimulationInputError) in try JourneyScenario.load(path: path) } ?? BuiltInDemo.scenario
        } catch {
            StandardStreams.printFailure("\(error)")
            return 1
        }
        if options.exitWhenDone, scenario.loop {
            StandardStreams.printFailure(
                "--exit-when-done needs a scenario that ends, but \"\(scenario.name)\" loops (\"loop\": true); use another scenario or leave out --exit-when-done")
            return 1
        }
        let name = options.name ?? profile.name
        if name.isEmpty {
            StandardStreams.printFailure("--name must not be empty")
            return 1
        }

        // 2. Build the host (nothing is visible yet).
        let host = profile.makeHost()

        // Signals are watched from before the socket exists, so a SIGTERM that arrives while
        // the host starts still ends in a clean shutdown that removes the socket.
        let (reasons, continuation) = AsyncStream<StopReason>.makeStream()
        let signals = SignalWatcher { number in continuation.yield(.signal(number)) }
        defer { signals.cancel() }

        // 3. Serve the inspector. A live host on the same path is left alone.
        var served: ServedInspector
        do {
            served = try ServedInspector(
                host: host, path: options.inspectionPath, hostVersion: profile.hostVersion, name: name, socketPath: options.socketPath,
                tcp: options.inspectorTCPOptions)
        } catch {
            StandardStreams.printFailure("cannot serve the inspector: \(error)")
            return 1
        }
        // The journey log is opened (and emptied) only now: a second host refused above must
        // not touch the log of the host that already serves this socket.
        var log: JourneyLog?
        if let path = options.journeyLogPath {
            do {
                log = try JourneyLog(path: path)
            } catch {
                StandardStreams.printFailure("\(error)")
                served.stop()
                return 1
            }
        }
        let agent = served.agent
        let journey = SimulatedJourney(host: host, log: log)
        served.tapJourney(of: host, transport: journey)
        StandardStreams.printOut("socket: \(agent.socketPath)")
        // The port only: the token goes to standard error once, in the agent's connect line.
        if let endpoint = agent.tcpEndpoint { StandardStreams.printOut("tcp: \(endpoint)") }

        if options.exitOnStdinEOF {
            Self.watchStandardInput { continuation.yield(.standardInputClosed) }
        }
        StandardStreams.printError(
            "bridge-inspector host: host \"\(name)\" (hostVersion \(profile.hostVersion)) is running the journey scenario \"\(scenario.name)\""
                + (scenario.loop ? " in a loop" : "") + "; stop it with Ctrl-C.")
        StandardStreams.printError(Self.attachHint(name: name, socketPath: agent.socketPath))

        // 4. Run: the host announces itself, the journey starts (once someone watches, when asked).
        let waitForInspector = options.waitForInspector
        if waitForInspector {
            StandardStreams.printError(
                "bridge-inspector host: waiting for an inspector to attach before the journey starts (bridge-inspector --socket \(agent.socketPath)).")
        }
        let scenarioTask = Task { @MainActor in
            if waitForInspector {
                while agent.subscriberCount == 0, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
                guard !Task.isCancelled else { return }
                StandardStreams.printError("bridge-inspector host: an inspector is attached; the journey starts.")
            }
            host.sendReadyEvent()
            await journey.run(scenario)
            continuation.yield(.scenarioFinished)
        }

        waiting: for await reason in reasons {
            switch reason {
            case .scenarioFinished:
                guard options.exitWhenDone else {
                    StandardStreams.printError(
                        "bridge-inspector host: the scenario \"\(scenario.name)\" has finished; the host keeps running until stopped.")
                    continue
                }
                try? await Task.sleep(for: Self.drain)
            case .signal(let number):
                StandardStreams.printError("bridge-inspector host: \(SignalWatcher.name(number)) received, stopping.")
            case .standardInputClosed:
                StandardStreams.printError("bridge-inspector host: standard input closed, stopping.")
            }
            break waiting
        }

        // 5. Shut down: journey first (no more traffic), then the agent (removes the socket).
        journey.stop()
        scenarioTask.cancel()
        served.stop()
        log?.close()
        continuation.finish()
        return 0
    }

    /// Runs `host --serve DIR` (or `--allow-origin`): the journey is a real page in a browser,
    /// connected over a WebSocket, instead of a simulated one.
    private func runWebJourney() async -> Int32 {
        // 1. Validate the profile and name before anything is visible from outside.
        let profile: HostProfile
        do {
            profile = try options.profilePath.map { path throws(SimulationInputError) in try HostProfile.load(path: path) } ?? BuiltInDemo.profile
        } catch {
            StandardStreams.printFailure("\(error)")
            return 1
        }
        let name = options.name ?? profile.name
        if name.isEmpty {
            StandardStreams.printFailure("--name must not be empty")
            return 1
        }
        let host = profile.makeHost()

        let (reasons, continuation) = AsyncStream<StopReason>.makeStream()
        let signals = SignalWatcher { number in continuation.yield(.signal(number)) }
        defer { signals.cancel() }

        // 2. Serve the journey (this checks the directory, the origins and the port), then the inspector.
        var configuration = WebJourneyConfiguration(
            servedDirectory: options.serveDirectory, port: options.port ?? 0, allowedOrigins: options.allowedOrigins,
            bootstrapScript: host.configuration?.bootstrapScript ?? BridgeConfiguration.defaultBootstrapScript)
        // Through the public API, the page runs the real page script, as in an app's WKWebView,
        // and its reports are all the inspector sees of what the host sends (no stand-in here).
        let pageReports = PageReportRelay()
        if options.inspectionPath == .publicAPI {
            configuration.pageReports = PageReportChannel(script: OutgoingTapScript.source, handlerName: OutgoingTapScript.handlerName) { body in
                pageReports.received(body)
            }
        }
        let server: WebJourneyServer
        do {
            server = try await WebJourneyServer.start(host: host, configuration: configuration) { notice in
                Self.report(notice, host: host)
            }
        } catch {
            StandardStreams.printFailure("\(error)")
            return 1
        }
        let served: ServedInspector
        do {
            served = try ServedInspector(
                host: host, path: options.inspectionPath, hostVersion: profile.hostVersion, name: name, socketPath: options.socketPath,
                tcp: options.inspectorTCPOptions)
        } catch {
            StandardStreams.printFailure("cannot serve the inspector: \(error)")
            await server.stop()
            return 1
        }
        pageReports.inspector = served
        let agent = served.agent
        StandardStreams.printOut("socket: \(agent.socketPath)")
        // The port only: the token goes to standard error once, in the agent's connect line.
        if let endpoint = agent.tcpEndpoint { StandardStreams.printOut("tcp: \(endpoint)") }
        // The journey's address holds the run's token: it goes to the person running the host
        // (standard output) and nowhere else; notices and logs never repeat it.
        StandardStreams.printOut("serving: \(server.journeyURL)")

        if options.exitOnStdinEOF {
            Self.watchStandardInput { continuation.yield(.standardInputClosed) }
        }
        let what = options.serveDirectory.map { "serving the web journey in \($0) at \(server.url)" }
            ?? "waiting for pages of \(options.allowedOrigins.joined(separator: ", "))"
        StandardStreams.printError(
            "bridge-inspector host: host \"\(name)\" (hostVersion \(profile.hostVersion)) is \(what); stop it with Ctrl-C.")
        if options.serveDirectory != nil {
            StandardStreams.printError(
                "bridge-inspector host: open the \"serving:\" URL above, with its token, in a browser; only a page opened from it can be the journey, and other local programs are refused.")
        }
        StandardStreams.printError(Self.attachHint(name: name, socketPath: agent.socketPath))
        if !options.allowedOrigins.isEmpty {
            StandardStreams.printError(
                "bridge-inspector host: pages of \(options.allowedOrigins.joined(separator: ", ")) include, as their first script, <script src=\"\(server.bootstrapScriptURL)\"></script> (it carries this run's token; do not commit it).")
        }

        // 3. Run until stopped; every page that connects gets host.ready (see report(_:host:)).
        waiting: for await reason in reasons {
            switch reason {
            case .scenarioFinished:
                continue
            case .signal(let number):
                StandardStreams.printError("bridge-inspector host: \(SignalWatcher.name(number)) received, stopping.")
            case .standardInputClosed:
                StandardStreams.printError("bridge-inspector host: standard input closed, stopping.")
            }
            break waiting
        }

        // 4. Shut down: pages first (no more traffic), then the agent (removes the socket).
        await server.stop()
        pageReports.summarize(server.pageReportCounts)
        served.stop()
        continuation.finish()
        return 0
    }

    /// Tells the person running the host what happened to the browser journey; sends `host.ready`
    /// to every page that attaches, as an app does once its journey is attached.
    private static func report(_ notice: WebJourneyNotice, host: BridgeHost) {
        // Actions, ids and origins come from the browser page: untrusted text.
        let printError = { (line: String) in StandardStreams.printError(Sanitizer.sanitize(line)) }
        switch notice {
        case .attached(let page):
            host.sendReadyEvent()
            printError("bridge-inspector host: \(page) attached (origin \(page.origin)); sent host.ready.")
        case .superseded(let page, let newer):
            printError("bridge-inspector host: \(newer) took over from \(page), which was disconnected: one page at a time is the journey.")
        case .detached(let page, let stillPending):
            var line = "bridge-inspector host: \(page) went (reload, navigation or closed tab); its bridge context ended."
            if !stillPending.isEmpty {
                let list = stillPending.map { "\($0.payload.action) (\($0.correlationId))" }.joined(separator: ", ")
                line += " \(stillPending.count) request(s) it sent are still pending: \(list). They stay in pendingRequests; an answer now reaches the next page, which never sent them."
            }
            printError(line)
        case .refused(let text):
            printError("bridge-inspector host: refused: \(text)")
        case .protocolError(let page, let text):
            printError("bridge-inspector host: \(page): \(text)")
        }
    }

    /// The line that tells a person how to watch this host: the command for a second terminal,
    /// `--host NAME` when the socket is in the per-user directory (where `--host` looks), else
    /// `--socket PATH`.
    static func attachHint(name: String, socketPath: String) -> String {
        let inDirectory = (socketPath as NSString).deletingLastPathComponent == SocketDirectory.resolve().path
        let option = inDirectory ? "--host \(name)" : "--socket \(socketPath)"
        return "bridge-inspector host: to inspect it, run in another terminal: bridge-inspector \(Sanitizer.sanitize(option))"
    }

    /// Calls `closed` once standard input reaches end of file (or fails), from a background thread.
    private static func watchStandardInput(_ closed: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count > 0 { continue }
                if count < 0, errno == EINTR { continue }
                break
            }
            closed()
        }
        thread.name = "bridge-inspector.stdin"
        thread.start()
    }
}
