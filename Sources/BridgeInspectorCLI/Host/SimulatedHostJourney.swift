import BridgeCore
import InspectorAgent
import JourneySimulation

/// `bridge-inspector host` with a simulated journey: a scenario (the built-in demo unless
/// `--scenario` names one) sent through the same JavaScript delivery path as a WebView.
@MainActor
final class SimulatedHostJourney: HostJourney {
    private let scenario: JourneyScenario
    private let options: HostOptions
    private var log: JourneyLog?
    private var journey: SimulatedJourney?
    private var scenarioTask: Task<Void, Never>?
    /// What `start` was given, kept for a reload, which starts the scenario again.
    private var started: (host: BridgeHost, finished: @Sendable () -> Void)?
    var journeyAttached: @MainActor (BridgeHost) -> Void = { $0.sendReadyEvent() }

    /// Loads the scenario and checks it fits the options, before anything is visible from outside.
    init(options: HostOptions) throws {
        let scenario = try options.scenarioPath.map { path throws(SimulationInputError) in try JourneyScenario.load(path: path) } ?? BuiltInDemo.scenario
        if options.exitWhenDone, scenario.loop {
            throw HostStartError(
                "--exit-when-done needs a scenario that ends, but \"\(scenario.name)\" loops (\"loop\": true); use another scenario or leave out --exit-when-done")
        }
        self.scenario = scenario
        self.options = options
    }

    var activity: String { "running the journey scenario \"\(scenario.name)\"" + (scenario.loop ? " in a loop" : "") }

    func prepare(host: BridgeHost) async throws {}

    func connect(host: BridgeHost, to served: inout ServedInspector) throws {
        // The journey log is opened (and emptied) only now: a second host refused when serving
        // the inspector must not touch the log of the host that already serves this socket.
        if let path = options.journeyLogPath { log = try JourneyLog(path: path) }
        let journey = SimulatedJourney(host: host, log: log)
        served.tapJourney(of: host, transport: journey)
        self.journey = journey
    }

    var outputLines: [String] { [] }

    var notices: (beforeAttachHint: [String], afterAttachHint: [String]) { ([], []) }

    func start(host: BridgeHost, agent: InspectorAgent, finished: @escaping @Sendable () -> Void) {
        guard let journey else { return }
        // The host announces itself, the journey starts (once someone watches, when asked).
        let waitForInspector = options.waitForInspector
        if waitForInspector {
            StandardStreams.printError(
                "bridge-inspector host: waiting for an inspector to attach before the journey starts (bridge-inspector --socket \(ScriptOutput.shellWord(agent.socketPath))).")
        }
        started = (host, finished)
        let scenario = scenario
        let journeyAttached = journeyAttached
        scenarioTask = Task { @MainActor in
            if waitForInspector {
                while agent.subscriberCount == 0, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(20)) }
                guard !Task.isCancelled else { return }
                StandardStreams.printError("bridge-inspector host: an inspector is attached; the journey starts.")
            }
            journeyAttached(host)
            await journey.run(scenario)
            // A reload ends this run and starts another, which reports the end instead.
            if !Task.isCancelled { finished() }
        }
    }

    /// A reload of the simulated page: the running journey stops (its waits end, as a page's
    /// timers do), a new journey attaches to the host, gets `host.ready` and runs the scenario
    /// again from its first step. The host keeps what it holds: requests the old journey sent
    /// stay in `pendingRequests`, and an answer to one now reaches the new journey, which never
    /// sent it. Not on the public-API path (its page script stand-in wraps the first journey).
    func reloadPage() throws(JourneyControlRefusal) -> String {
        guard let started, let old = journey else {
            throw JourneyControlRefusal("the journey has not started yet: nothing to reload")
        }
        if options.inspectionPath == .publicAPI {
            throw JourneyControlRefusal("the simulated journey cannot be reloaded on the public-API path")
        }
        old.note("the page reloads (an inspector's journey reload): this journey ends, a new one starts from the first step")
        old.stop()
        scenarioTask?.cancel()
        let journey = SimulatedJourney(host: started.host, log: log)
        self.journey = journey
        let scenario = scenario
        let journeyAttached = journeyAttached
        let finished = started.finished
        let host = started.host
        scenarioTask = Task { @MainActor in
            journeyAttached(host)
            await journey.run(scenario)
            if !Task.isCancelled { finished() }
        }
        return "reloaded the simulated journey: it starts \"\(scenario.name)\" again from its first step, after host.ready"
    }

    func finished() -> Bool {
        guard options.exitWhenDone else {
            StandardStreams.printError("bridge-inspector host: the scenario \"\(scenario.name)\" has finished; the host keeps running until stopped.")
            return false
        }
        return true
    }

    func stop() async {
        journey?.stop()
        scenarioTask?.cancel()
    }

    func close() {
        log?.close()
    }
}
