import ArgumentParser
import Foundation
import HostDiagnosis
import InspectorClient
import InspectorProtocol

/// `bridge-inspector fault-scenario FILE`: runs a fault scenario (fault rules, lifecycle steps at
/// their moments, expectations) against a host while its journey runs, and exits with the verdict,
/// so a CI job runs the journey's unhappy paths on every commit.
struct FaultScenarioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fault-scenario",
        abstract: "Run a file of fault rules, lifecycle steps and expectations against a host while its journey runs; exit 6 when the journey mishandles them.",
        discussion: """
            The headless form of `fault` and `lifecycle`, for CI. The file (JSON, described in \
            docs/fault-scenarios.md) holds:

              faults    fault rules, as `fault --file` takes them (BUSY twice, a
                        delay, never-answer, …), set for the run and removed after
              steps     lifecycle steps at their moments: "at": "2s" from the start,
                        or "when": FILTER, "after": "500ms" (half a second after the
                        first message that matches, say a capture request)
              until     a filter: the run ends (settle later) at the first message
                        that matches, such as action:journey.complete
              duration  the longest the run lasts (default 60s)
              expect    how the journey must answer its unhappy paths, e.g.
                        {"after": "BUSY", "action": "camera.*", "journey": "retries"}
                        (retries, doesNotRetry, sendsCancel; after an error code,
                        cancelled, unsupported or no-answer)
              doctor    which of the doctor's checks count: {"failOn": "failure",
                        "skip": ["pending-requests"]}

            The rules are set before this command subscribes to the host's traffic, so a host \
            started with --wait-for-inspector begins its journey with the faults in place; \
            for a journey already running, make the first step {"at": "0s", "do": "reload"}.

            The verdict: every rule fired at least once (a rule that never fires tests \
            nothing), every step was done, the journey reached `until`, every expectation held \
            (an expectation whose unhappy path never happened fails too), and no doctor check \
            fails at the scenario's level. Progress (rules, faulted messages, steps) goes to \
            standard error; the report to standard output, or with --json one JSON object (the \
            checks, the steps, the doctor's report and the journey's coverage). --record FILE \
            also saves the session as a recording, to read what happened with `open`.

            Exit status: 0 the journey passed; 6 a check failed (the report says which); 2 the \
            host cannot fault its handling or control its web view (an app seen through \
            GBGBridge's public API); 3 no host, or it went away; 1 interrupted before the end; \
            64 a bad scenario file (its place and what is wrong) or option.

            Examples:
              bridge-inspector fault-scenario busy-retry.json --host my-app
              bridge-inspector fault-scenario unhappy.json --json > verdict.json
              bridge-inspector host --scenario journey.json --wait-for-inspector --socket /tmp/j.sock &
              bridge-inspector fault-scenario busy-retry.json --socket /tmp/j.sock --record run.jsonl
            """)

    @OptionGroup var selection: HostSelection

    @Argument(help: ArgumentHelp("The fault scenario file (JSON).", valueName: "file"), completion: Completions.jsonFile)
    var file: String

    @Flag(help: "Print the verdict as one JSON object instead of the report.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print only what failed (and nothing when the journey passed).")
    var quiet = false

    @Option(help: ArgumentHelp("Also save the session as a recording to this file (never over an existing one).", valueName: "file"), completion: Completions.recording)
    var record: String?

    @OptionGroup(title: "The doctor's thresholds") var thresholds: DoctorThresholdOptions

    static let client = "bridge-inspector fault-scenario"

    func run() throws {
        try Script.run {
            let scenario: FaultScenario
            do throws(FaultScenarioError) {
                scenario = try FaultScenario.read(file: file)
            } catch {
                throw ScriptError.usage(
                    "the fault scenario \(ScriptOutput.safe(file)) cannot be used: \(ScriptOutput.safe(error.description))",
                    hint: "fix that place in the file; docs/fault-scenarios.md describes every field")
            }
            let doctor = Doctor(thresholds: try thresholds.thresholds())
            let recordPath = try record.map { try RunRecording.freshFile($0, command: "fault-scenario") }
            let endpoint = try selection.endpoint()
            // The rules go in through a session of their own, which does not follow the traffic,
            // before the watching session subscribes: a host waiting for an inspector starts its
            // journey only then, with the faults in place.
            let control = try InspectorSession(endpoint: endpoint, subscribe: false, clientName: Self.client, timeout: HostSelection.connectTimeout)
            defer { control.close() }
            if !scenario.faults.isEmpty { try control.require(.faults, doing: "fault its handling of messages") }
            if scenario.steps.contains(where: { if case .journey = $0.step { return true } else { return false } }) {
                try control.require(.journeyControl, doing: "detach, attach or reload its journey's web view")
            }
            let progress = FaultScenarioProgress(quiet: quiet || json)
            progress.header(scenario, host: control.hello.host)
            // A reload at 0s goes first: the page that was running cannot use up the rules.
            var early: [(index: Int, outcome: FaultScenarioRun.StepOutcome)] = []
            for index in scenario.stepsBeforeRules {
                let outcome = Self.perform(scenario.steps[index].step, on: control)
                early.append((index, outcome))
                progress.step(index, scenario.steps[index], outcome, since: 0, at: 0)
            }
            // The run is what comes after this number: messages between now and the watching
            // session's snapshot are in that snapshot's log.
            _ = try control.perform(.snapshot, hint: nil)
            let startSeq = try control.firstSnapshot().seq
            let ids = try FaultRuleInstaller.add(scenario.faults, on: control) { id, rule in progress.ruleSet(id: id, rule: rule) }
            var installed = ids
            defer { FaultRuleInstaller.remove(installed, on: control) }

            let watch = try InspectorSession(endpoint: endpoint, subscribe: true, clientName: Self.client, timeout: HostSelection.connectTimeout)
            defer { watch.close() }
            let loop = FrameLoop(session: watch)
            defer { loop.cancel() }
            var state = LiveState()
            var clock = HostClock()
            let snapshot = try watch.firstSnapshot()
            let startedAt = Self.nowMs()
            state.apply(.snapshot(seq: snapshot.seq, state: snapshot.state), at: startedAt)
            // What a rule changed between setting the rules and this snapshot is in its log:
            // said as if it came now, so every message the rules changed has its line.
            for record in snapshot.state.messages where record.seq > startSeq {
                if let mark = record.fault, ids.contains(mark.rule) { progress.faulted(record, mark: mark, since: startedAt, at: startedAt) }
            }
            var run: FaultScenarioRun
            do throws(FaultScenarioError) {
                run = try FaultScenarioRun(scenario, startedAt: startedAt, startSeq: startSeq)
            } catch {
                throw ScriptError.usage(ScriptOutput.safe(error.description))
            }
            for (index, outcome) in early {
                run.record(outcome, forStep: index)
            }
            run.observe(state, at: startedAt)

            let end = try loop.run(timeout: nil, nextWake: { run.nextWakeMs(at: Self.nowMs()) / 1000 }) { frame in
                let now = Self.nowMs()
                if let frame {
                    state.apply(frame, at: now)
                    clock.observe(frame, at: now)
                    if case .event(_, .traffic(let record)) = frame, let mark = record.fault, ids.contains(mark.rule) {
                        progress.faulted(record, mark: mark, since: startedAt, at: now)
                    }
                }
                let untilBefore = run.untilSeq
                run.observe(state, at: now)
                if untilBefore == nil, let seq = run.untilSeq { progress.reachedUntil(scenario, seq: seq, since: startedAt, at: now) }
                for index in run.takeDueSteps(at: now) {
                    let outcome = Self.perform(run.steps[index].step.step, on: control)
                    run.record(outcome, forStep: index)
                    progress.step(index, run.steps[index].step, outcome, since: startedAt, at: Self.nowMs())
                }
                if case .finished = run.advance(at: Self.nowMs()) { return true }
                return false
            }
            switch end {
            case .hostGone:
                throw ScriptError.hostWentAway(watch.socketPath, while: "during the fault scenario")
            case .interrupted:
                throw ScriptError.failure("interrupted before the fault scenario ended: no verdict", hint: "the fault rules were removed")
            case .finished, .timedOut:
                break
            }
            FaultRuleInstaller.remove(installed, on: control)
            installed = []
            let endedAt = Self.nowMs()
            // Both ends on the host's clock as read at the end, when the clock has seen the most.
            let verdict = FaultScenarioVerdict(
                run: run, ruleIds: ids, state: state, hostStartedAt: clock.hostNow(localNow: startedAt), hostNow: clock.hostNow(localNow: endedAt),
                doctor: doctor)
            if let recordPath {
                try RunRecording.write(state, of: "the fault scenario", to: recordPath, socket: watch.socketPath, client: Self.client, quiet: quiet || json)
            }
            if json {
                StandardStreams.printJSON(try ScriptOutput.json(verdict))
            } else {
                let lines = FaultScenarioReport(verdict: verdict).lines(onlyFailures: quiet)
                if !lines.isEmpty { StandardStreams.printOut(lines.joined(separator: "\n")) }
            }
            guard verdict.passed else {
                throw ScriptError(
                    exitCode: ExitCodes.doctorFailed,
                    message: "fault scenario \(ScriptOutput.safe(scenario.name)) failed: \(verdict.failedCount) of \(verdict.judgedCount) checks",
                    hint: "each failed check above says what the journey did; --record FILE keeps the session to `open` it")
            }
        }
    }

    /// Does one lifecycle step through the control session: what was done, or the host's refusal.
    static func perform(_ step: LifecycleStep, on session: InspectorSession) -> FaultScenarioRun.StepOutcome {
        do {
            let reply = try session.run(step.command, timeout: InspectorSession.replyTimeout)
            switch reply.result {
            case .success(let value):
                if case .journey(let journeyStep) = step { return .done(value["done"]?.stringValue ?? journeyStep.summary) }
                return .done(reply.sent.first.map { "sent \($0.payload.action)" } ?? "sent")
            case .failure(let error):
                return .refused(error.message)
            }
        } catch {
            return .refused("\(error)")
        }
    }

    static func nowMs() -> Double { Date().timeIntervalSince1970 * 1000 }
}
