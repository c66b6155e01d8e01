import BridgeCore
import Foundation
import InspectorAgent
import JourneySimulation
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

        // 1. Validate everything before anything is visible from outside.
        let profile: HostProfile
        let scenario: JourneyScenario
        do {
            profile = try options.profilePath.map { path throws(SimulationInputError) in try HostProfile.load(path: path) } ?? BuiltInDemo.profile
            scenario = try options.scenarioPath.map { path throws(SimulationInputError) in try JourneyScenario.load(path: path) } ?? BuiltInDemo.scenario
        } catch {
            StandardStreams.printError("error: \(error)")
            return 1
        }
        if options.exitWhenDone, scenario.loop {
            StandardStreams.printError(
                "error: --exit-when-done needs a scenario that ends, but \"\(scenario.name)\" loops (\"loop\": true); use another scenario or leave out --exit-when-done")
            return 1
        }
        let name = options.name ?? profile.name
        if name.isEmpty {
            StandardStreams.printError("error: --name must not be empty")
            return 1
        }

        // 2. Build the host and the journey (nothing is visible yet).
        let host = profile.makeHost()
        var log: JourneyLog?
        if let path = options.journeyLogPath {
            do {
                log = try JourneyLog(path: path)
            } catch {
                StandardStreams.printError("error: \(error)")
                return 1
            }
        }
        let journey = SimulatedJourney(host: host, log: log)

        // Signals are watched from before the socket exists, so a SIGTERM that arrives while
        // the host starts still ends in a clean shutdown that removes the socket.
        let (reasons, continuation) = AsyncStream<StopReason>.makeStream()
        let signals = SignalWatcher { number in continuation.yield(.signal(number)) }
        defer { signals.cancel() }

        // 3. Serve the inspector. A live host on the same path is left alone.
        let agent: InspectorAgent
        do {
            agent = try host.startInspector(name: name, socketPath: options.socketPath)
        } catch {
            StandardStreams.printError("error: cannot serve the inspector: \(error)")
            log?.close()
            if let path = options.journeyLogPath { try? FileManager.default.removeItem(atPath: path) }
            return 1
        }
        StandardStreams.printOut("socket: \(agent.socketPath)")

        if options.exitOnStdinEOF {
            Self.watchStandardInput { continuation.yield(.standardInputClosed) }
        }
        StandardStreams.printError(
            "bridge-inspector host: host \"\(name)\" (hostVersion \(profile.hostVersion)) is running the journey scenario \"\(scenario.name)\""
                + (scenario.loop ? " in a loop" : "") + "; stop it with Ctrl-C.")

        // 4. Run: the host announces itself, the journey starts.
        host.sendReadyEvent()
        let scenarioTask = Task { @MainActor in
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
        agent.stop()
        log?.close()
        continuation.finish()
        return 0
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
