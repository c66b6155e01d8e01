import BridgeCore
import Foundation
import InspectorAgent
import JourneySimulation
import JourneyWebKit
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
import ThreadSupport

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

    /// The exit status for an error found while validating the command line, before anything
    /// starts: a bad or missing profile or scenario file, a journey directory or address that is
    /// not one, an origin or port that is not one, or options that contradict each other are
    /// the command line's fault (64, as a bad `--rules` file is); a `--recording` that is no
    /// recording is exit 5, as `open` says of it; anything else (the WebKit
    /// runner not built, a port already taken) is a failure (1).
    static func exitStatus(forStartError error: any Error) -> Int32 {
        switch error {
        case is SimulationInputError, is HostStartError: ExitCodes.usage
        case is RecordedHostError: ExitCodes.badRecording
        case WebKitJourneyError.invalidJourney: ExitCodes.usage
        case WebJourneyError.servedDirectory, WebJourneyError.invalidOrigin, WebJourneyError.invalidPort: ExitCodes.usage
        default: ExitCodes.failure
        }
    }

    /// How long a finished scenario's last responses get to arrive before `--exit-when-done` exits.
    static let drain: Duration = .milliseconds(500)

    let options: HostOptions

    /// Runs the host; returns the exit status. One path for both kinds of journey
    /// (``HostJourney``): validate, serve, announce, run, shut down.
    func run() async -> Int32 {
        // Output may go to a pipe whose reader is gone (a `demo` parent that was killed): a
        // write must then fail, not kill the host before it removes its socket.
        signal(SIGPIPE, SIG_IGN)

        // 1. Validate everything before anything is visible from outside.
        let profile: HostProfile
        let journey: any HostJourney
        var recorded: RecordedHost?
        do {
            profile = try options.profilePath.map { path throws(SimulationInputError) in try HostProfile.load(path: path) } ?? BuiltInDemo.profile
            recorded = try options.recordingPath.map { try RecordedHost(path: $0, ignoring: options.ignoredPaths, pacing: options.recordedPacing) }
            if options.webKitJourney != nil {
                journey = try WebKitHostJourney(options: options)
            } else {
                journey = options.servesWebJourney ? WebHostJourney(options: options) : try SimulatedHostJourney(options: options)
            }
        } catch {
            StandardStreams.printFailure("\(error)")
            return Self.exitStatus(forStartError: error)
        }
        let name = options.name ?? recorded?.defaultName ?? profile.name
        if name.isEmpty {
            StandardStreams.printFailure("--name must not be empty")
            return ExitCodes.usage
        }
        let hostVersion = recorded?.hostVersion ?? profile.hostVersion

        // 2. Build the host (nothing is visible yet): from the recording, or from the profile.
        let host = recorded?.makeHost() ?? profile.makeHost()
        if let recorded { journey.journeyAttached = { host in recorded.pageAttached(host: host) } }

        // Signals are watched from before the socket exists, so a SIGTERM that arrives while
        // the host starts still ends in a clean shutdown that removes the socket.
        let (reasons, continuation) = AsyncStream<StopReason>.makeStream()
        let signals = SignalWatcher { number in continuation.yield(.signal(number)) }
        defer { signals.cancel() }

        // 3. What the journey must check first (a web journey's directory, origins and port),
        //    then the inspector (a live host on the same path is left alone), then the journey
        //    joins them.
        do {
            try await journey.prepare(host: host)
        } catch {
            StandardStreams.printFailure("\(error)")
            return Self.exitStatus(forStartError: error)
        }
        var served: ServedInspector
        do {
            served = try ServedInspector(
                host: host, path: options.inspectionPath, hostVersion: hostVersion, name: name, socketPath: options.socketPath,
                tcp: options.inspectorTCPOptions, journeyPage: journey.journeyPage,
                journeyControl: BridgeHostJourneyControl(host: host) { [weak journey] () throws(JourneyControlRefusal) in
                    guard let journey else { throw JourneyControlRefusal("the journey has stopped") }
                    return try journey.reloadPage()
                })
        } catch {
            StandardStreams.printFailure("cannot serve the inspector: \(error)")
            await journey.stop()
            return 1
        }
        do {
            try journey.connect(host: host, to: &served)
        } catch {
            StandardStreams.printFailure("\(error)")
            served.stop()
            return 1
        }
        let agent = served.agent
        StandardStreams.printOut("socket: \(agent.socketPath)")
        // The port only: the token goes to standard error once, in the agent's connect line.
        if let endpoint = agent.tcpEndpoint { StandardStreams.printOut("tcp: \(endpoint)") }
        for line in journey.outputLines { StandardStreams.printOut(line) }

        if options.exitOnStdinEOF {
            Self.watchStandardInput { continuation.yield(.standardInputClosed) }
        }
        // A recorded host's name and version come from the recording: untrusted text.
        StandardStreams.printError(Sanitizer.sanitize(
            "bridge-inspector host: host \"\(name)\" (hostVersion \(hostVersion)) is \(journey.activity); stop it with Ctrl-C."))
        if let recorded { StandardStreams.printError(Sanitizer.sanitize("bridge-inspector host: \(recorded.summary).")) }
        let notices = journey.notices
        for line in notices.beforeAttachHint { StandardStreams.printError(line) }
        StandardStreams.printError(Self.attachHint(name: name, socketPath: agent.socketPath))
        for line in notices.afterAttachHint { StandardStreams.printError(line) }

        // 4. Run until stopped.
        journey.start(host: host, agent: agent) { continuation.yield(.scenarioFinished) }
        waiting: for await reason in reasons {
            switch reason {
            case .scenarioFinished:
                guard journey.finished() else { continue }
                try? await Task.sleep(for: Self.drain)
            case .signal(let number):
                StandardStreams.printError("bridge-inspector host: \(SignalWatcher.name(number)) received, stopping.")
            case .standardInputClosed:
                StandardStreams.printError("bridge-inspector host: standard input closed, stopping.")
            }
            break waiting
        }

        // 5. Shut down: the journey first (no more traffic), then the agent (removes the socket).
        await journey.stop()
        served.stop()
        journey.close()
        continuation.finish()
        return journey.failure == nil ? 0 : 1
    }

    /// The line that tells a person how to watch this host: the command for a second terminal,
    /// `--host NAME` when the socket is in the per-user directory (where `--host` looks), else
    /// `--socket PATH`.
    static func attachHint(name: String, socketPath: String) -> String {
        let inDirectory = (socketPath as NSString).deletingLastPathComponent == SocketDirectory.resolve().path
        let option = inDirectory ? "--host \(ScriptOutput.shellWord(name))" : "--socket \(ScriptOutput.shellWord(socketPath))"
        return "bridge-inspector host: to inspect it, run in another terminal: bridge-inspector \(option)"
    }

    /// Calls `closed` once standard input reaches end of file (or fails), from a background thread.
    private static func watchStandardInput(_ closed: @escaping @Sendable () -> Void) {
        DedicatedThread.start(name: "bridge-inspector.stdin") {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count > 0 { continue }
                if count < 0, errno == EINTR { continue }
                break
            }
            closed()
        }
    }
}
