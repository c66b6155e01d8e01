import ArgumentParser
import Foundation
import HostDiagnosis
import InspectorClient
import InspectorProtocol

/// `bridge-inspector doctor`: GBGBridge's troubleshooting checklist run against a live host, once
/// or (`--watch`) as the traffic goes on; exits 6 when a check fails, so a CI job can run it after
/// a scripted journey.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Run GBGBridge's troubleshooting checklist against a running host.",
        discussion: """
            Every check of GBGBridge's troubleshooting page that an inspector can observe, \
            each ok, warning, failure or not run, with the evidence (messages, correlation ids, \
            times), the documented fix and the page's heading: lastError, the journey attached \
            and talking, messages that fail to decode, pending requests and those the journey \
            gave up on, action strings that miss a handler by case or a typo, typed slots \
            without a handler or disabled, requests capability.query did not report, slots \
            stuck busy and BUSY answers, permissionState still notDetermined, large payloads, \
            receivedMessages piling up, responses that answer nothing, duplicate correlation \
            ids, messages that never reached the journey, and messages either way that break \
            GBGBridge's documented contract (`bridge-inspector contract` lists its rules). \
            docs/cli.md lists every check.

            It reads the host's state and message log now (the messages the host still keeps). \
            Failures and warnings come first. The inspector's doctor view (key D) shows the \
            same, updating live. Through GBG's GBGBridge public API some checks \
            cannot see what they need: they say "not run" and why.

            --watch stays attached: the whole report first, then a line for each check whose \
            outcome changes, until Ctrl-C or the host stops. --json prints the report as one \
            JSON object (with --watch: one per line, each time something changes).

            Exit status: 0 when no check fails (warnings allowed; --fail-on warning fails on \
            them too); 6 when a check fails (with --watch: the last report's); 3 no host; 64 \
            a bad option.

            Examples:
              bridge-inspector doctor --host demo
              bridge-inspector doctor --watch
              bridge-inspector doctor --json | jq '.checks[] | select(.status == "failure")'
              bridge-inspector tail --until action:journey.cancel --timeout 120 && bridge-inspector doctor --fail-on warning
            """)

    @OptionGroup var selection: HostSelection

    @Flag(help: "Print the report as one JSON object (sorted keys; with --watch one per line).")
    var json = false

    @Flag(help: "Stay attached and report each change, until Ctrl-C or the host stops.")
    var watch = false

    @Option(help: ArgumentHelp("With --watch: how often to examine again (default 1).", valueName: "seconds"))
    var interval: Double?

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp("Exit 6 on any check at this level or worse: failure (default) or warning.", valueName: "level"))
    var failOn: FailLevel = .failure

    @Option(
        name: .customLong("skip"),
        help: ArgumentHelp("Leave out this check (repeatable), e.g. --skip pending-requests. The ids are listed in docs/cli.md.", valueName: "check"))
    var skip: [String] = []

    @OptionGroup var thresholds: DoctorThresholdOptions

    /// The level at which the doctor exits 6.
    enum FailLevel: String, ExpressibleByArgument, CaseIterable {
        case failure, warning
    }

    func validate() throws {
        if interval != nil, !watch { throw ValidationError("--interval applies only with --watch") }
        if let interval, !(interval >= 0.1 && interval <= 3600) {
            throw ValidationError("--interval takes a number of seconds from 0.1 to 3600 (got \(interval))")
        }
        for id in skip where DoctorCheckID(rawValue: id) == nil {
            throw ValidationError(
                "--skip: no check is called '\(id)'; the checks are \(DoctorCheckID.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        try Script.run {
            let doctor = Doctor(thresholds: try thresholds.thresholds())
            let skipped = Set(skip.compactMap(DoctorCheckID.init(rawValue:)))
            let output = DoctorOutput(json: json, skipped: skipped)
            let report = watch
                ? try watchHost(doctor: doctor, output: output)
                : try examineOnce(doctor: doctor, output: output)
            if let report, fails(output.kept(report)) { throw ExitCode(ExitCodes.doctorFailed) }
        }
    }

    /// Whether `report` fails at the chosen level.
    private func fails(_ report: DoctorReport) -> Bool {
        report.status >= (failOn == .warning ? DoctorStatus.warning : .failure)
    }

    /// One snapshot, one report.
    private func examineOnce(doctor: Doctor, output: DoctorOutput) throws -> DoctorReport? {
        let (state, _) = try SessionLog.load(file: nil, selection: selection, client: "bridge-inspector doctor", usedAs: "")
        // The snapshot carries no clock of the host's: ages are measured on this machine's,
        // which is the host's in the Simulator and on this computer.
        let report = doctor.examine(state, hostNow: Date().timeIntervalSince1970 * 1000)
        try output.printReport(report)
        return report
    }

    /// Attached until Ctrl-C or the host stops: the report, then each change.
    private func watchHost(doctor: Doctor, output: DoctorOutput) throws -> DoctorReport? {
        let session = try selection.session(subscribe: true, client: "bridge-inspector doctor --watch")
        defer { session.close() }
        let loop = FrameLoop(session: session)
        defer { loop.cancel() }
        let every = (interval ?? 1) * 1000
        var state = LiveState()
        var clock = HostClock()
        var last: DoctorReport?
        var nextExamination = 0.0
        let end = try loop.run(timeout: nil, nextWake: { max(0.001, (nextExamination - Self.nowMs()) / 1000) }) { frame in
            let now = Self.nowMs()
            if let frame {
                state.apply(frame, at: now)
                clock.observe(frame, at: now)
            }
            guard state.host != nil, now >= nextExamination else { return false }
            nextExamination = now + every
            let report = doctor.examine(state, hostNow: clock.hostNow(localNow: now))
            if let last {
                try output.printChanges(from: last, to: report)
            } else {
                try output.printReport(report)
            }
            last = report
            return false
        }
        if end == .hostGone {
            guard last != nil else { throw ScriptError.hostWentAway(session.socketPath, while: "before the doctor could examine it") }
            StandardStreams.printError("note: the host at \(session.socketPath) stopped; the exit status is that of the last report")
        }
        return last
    }

    private static func nowMs() -> Double { Date().timeIntervalSince1970 * 1000 }
}
