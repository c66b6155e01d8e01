import BridgeCore
import Foundation
import InspectorProtocol

/// Sends a ``SessionRerunPlan``'s steps to a host through a ``SessionRerunLink`` and collects
/// what the host did (``SessionRerunOutcome``).
///
/// Pacing, on the injected clock (time is an input: tests move a `ManualClock`):
///
/// - Before a step, the driver waits until the host has answered every request the recording
///   shows answered before that step (``SessionRerunPlan/Step/awaits``). Each such wait is
///   bounded by ``Settings/answerTimeout``, counted from when the request was sent: when it
///   passes, the driver notes it (``Event/timedOut(_:place:)``) and goes on.
/// - With ``SessionRerun/Pacing/recorded`` it also keeps at least the recorded gap between one
///   journey message and the next.
/// - After the last step it waits (bounded the same way) for the answers the recording shows
///   after it.
///
/// Each message is sent with a new correlation id (``SessionRerun/correlationId(for:suffix:)``)
/// unless ``Settings/sameId``, and today's timestamp; the rest as recorded.
///
/// ```swift
/// let driver = SessionRerunDriver(plan: plan, settings: .init(answerTimeout: .seconds(10)), clock: ContinuousClock())
/// let outcome = try await driver.run(link: link, initialFrames: [snapshot]) { event in print(event) }
/// ```
public struct SessionRerunDriver: Sendable {
    /// How the driver paces and names what it sends.
    public struct Settings: Sendable {
        /// As fast as the host answers, or also with the recorded gaps.
        public var pacing: SessionRerun.Pacing
        /// How long to wait for a recorded answer, from when its request was sent.
        public var answerTimeout: Duration
        /// Keep the recorded correlation ids.
        public var sameId: Bool
        /// The suffix of the new correlation ids (``SessionRerun/correlationId(for:suffix:)``).
        public var suffix: String
        /// How often the driver reads the host's frames while it waits.
        public var pollInterval: Duration

        /// The default answer timeout: 10 seconds.
        public static let defaultAnswerTimeout: Duration = .seconds(10)

        /// Creates settings.
        public init(
            pacing: SessionRerun.Pacing = .answers, answerTimeout: Duration = defaultAnswerTimeout, sameId: Bool = false,
            suffix: String = BridgeMessage.randomReplaySuffix(), pollInterval: Duration = .milliseconds(10)
        ) {
            self.pacing = pacing
            self.answerTimeout = answerTimeout
            self.sameId = sameId
            self.suffix = suffix
            self.pollInterval = pollInterval
        }
    }

    /// What happens as the rerun goes, for a caller that reports progress.
    public enum Event: Sendable {
        /// The step's message was handed to the host with this correlation id.
        case sent(SessionRerunPlan.Step, id: String)
        /// The host refused the step's message (its reason; untrusted text).
        case refused(SessionRerunPlan.Step, reason: String)
        /// The host answered the step's request: the answer as the host sent it, and how long the
        /// host took, in milliseconds by its clock.
        case answered(SessionRerunPlan.Step, answer: BridgeMessage, latencyMs: Double?)
        /// The host put the step's request in `pendingRequests`.
        case pending(SessionRerunPlan.Step)
        /// The recorded answer to the step's request did not come within the answer timeout;
        /// the driver goes on. `place`: where the request waits, if it does.
        case timedOut(SessionRerunPlan.Step, place: String?)
    }

    /// The plan to run.
    public let plan: SessionRerunPlan
    /// How to pace and name.
    public let settings: Settings
    /// The clock the driver waits on.
    public let clock: any Clock<Duration>
    /// Today's time, for the messages' timestamps.
    public let now: @Sendable () -> Date
    /// `clock` read as durations since the driver was made.
    private let timeline: ClockTimeline

    /// Creates a driver on `clock` (the continuous clock by default).
    public init(
        plan: SessionRerunPlan, settings: Settings = .init(), clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.plan = plan
        self.settings = settings
        self.clock = clock
        self.now = now
        self.timeline = ClockTimeline(clock)
    }

    /// The message step `step` sends: a new id unless ``Settings/sameId``, today's timestamp.
    public func message(for step: SessionRerunPlan.Step) -> BridgeMessage {
        var message = step.message
        if !settings.sameId { message.correlationId = SessionRerun.correlationId(for: message.correlationId, suffix: settings.suffix) }
        message.timestamp = (now().timeIntervalSince1970 * 1000).rounded()
        return message
    }

    /// Runs the plan through `link`. `initialFrames` are frames the caller already read (the
    /// host's snapshot); `onEvent` hears of each message sent, answered, refused or given up on.
    /// Throws what the link throws when the host goes away, or `CancellationError`.
    public func run(
        link: any SessionRerunLink, initialFrames: [AgentFrame] = [], onEvent: (Event) -> Void = { _ in }
    ) async throws -> SessionRerunOutcome {
        var run = Run(plan: plan, timeline: timeline)
        for frame in initialFrames { run.apply(frame, onEvent: onEvent) }
        var lastSentAt: Duration?
        var logStart: Int?
        for step in plan.steps {
            let notBefore: Duration? =
                settings.pacing == .recorded ? lastSentAt.map { $0 + Self.duration(ms: step.gapMs) } : nil
            run.awaited.append(contentsOf: step.awaits)
            try await wait(&run, link: link, notBefore: notBefore, onEvent: onEvent)
            let message = message(for: step)
            run.sentIds[step.index] = message.correlationId
            if logStart == nil { logStart = run.state.log.count }
            do {
                try await link.inject(message)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                run.refused[step.index] = "\(error)"
                onEvent(.refused(step, reason: "\(error)"))
                continue
            }
            let sentAt = run.timeline.elapsed
            run.sentAt[step.index] = sentAt
            lastSentAt = sentAt
            if message.type == .request { run.waitingFor[message.correlationId, default: []].append(step.index) }
            onEvent(.sent(step, id: message.correlationId))
        }
        run.awaited.append(contentsOf: plan.awaitsAtEnd)
        try await wait(&run, link: link, notBefore: nil, onEvent: onEvent)
        try await run.drain(link, onEvent: onEvent)
        return run.outcome(logStart: logStart ?? run.state.log.count)
    }

    /// Waits until every awaited answer came or timed out and, when given, `notBefore` passed.
    private func wait(_ run: inout Run, link: any SessionRerunLink, notBefore: Duration?, onEvent: (Event) -> Void) async throws {
        while true {
            try await run.drain(link, onEvent: onEvent)
            let now = run.timeline.elapsed
            var wake = now + settings.pollInterval
            var open: [Int] = []
            for index in run.awaited where run.answered[index] == nil && !run.gaveUp.contains(index) {
                guard let sentAt = run.sentAt[index] else { continue }  // refused: nothing to wait for
                let deadline = sentAt + settings.answerTimeout
                if now >= deadline {
                    run.gaveUp.insert(index)
                    let place = run.place(of: index)
                    onEvent(.timedOut(plan.steps[index], place: place))
                } else {
                    open.append(index)
                    wake = min(wake, deadline)
                }
            }
            run.awaited = open
            let gapKept = notBefore.map { now >= $0 } ?? true
            if open.isEmpty, gapKept { return }
            if let notBefore, !gapKept { wake = min(wake, notBefore) }
            try await run.timeline.sleep(untilElapsed: wake)
        }
    }

    static func duration(ms: Double) -> Duration {
        guard ms.isFinite, ms > 0 else { return .zero }
        return .microseconds(Int64(min(ms, 1e12) * 1000))
    }

    /// The state of one run.
    private struct Run {
        let plan: SessionRerunPlan
        let timeline: ClockTimeline
        var state = LiveState()
        var frames: [AgentFrame] = []
        /// When each step was sent (elapsed on the timeline).
        var sentAt: [Int: Duration] = [:]
        var sentIds: [Int: String] = [:]
        var refused: [Int: String] = [:]
        /// The answer to each step's request, once it came.
        var answered: [Int: BridgeMessage] = [:]
        /// Requests not answered yet, by the id they were sent with, oldest first.
        var waitingFor: [String: [Int]] = [:]
        /// Steps whose answers are waited for now.
        var awaited: [Int] = []
        /// Steps whose answers the driver stopped waiting for.
        var gaveUp: Set<Int> = []

        init(plan: SessionRerunPlan, timeline: ClockTimeline) {
            self.plan = plan
            self.timeline = timeline
        }

        mutating func drain(_ link: any SessionRerunLink, onEvent: (Event) -> Void) async throws {
            for frame in try await link.availableFrames() { apply(frame, onEvent: onEvent) }
        }

        mutating func apply(_ frame: AgentFrame, onEvent: (Event) -> Void) {
            state.apply(frame)
            frames.append(frame)
            guard case .event(_, let event) = frame else { return }
            switch event {
            case .traffic(let record) where record.direction == .sent && record.message.type == .response:
                let id = record.message.correlationId
                guard var steps = waitingFor[id], !steps.isEmpty else { return }
                let index = steps.removeFirst()
                waitingFor[id] = steps.isEmpty ? nil : steps
                answered[index] = record.message
                let row = state.log.last
                let latency = row?.correlationId == id && row?.type == .response ? row?.latencyMs : nil
                onEvent(.answered(plan.steps[index], answer: record.message, latencyMs: latency))
            case .pendingAdded(let request):
                if let index = waitingFor[request.correlationId]?.first { onEvent(.pending(plan.steps[index])) }
            default:
                break
            }
        }

        /// Where the request of step `index` waits in the host now, if it does.
        func place(of index: Int) -> String? {
            guard let id = sentIds[index] else { return nil }
            if state.pending.contains(where: { $0.correlationId == id }) { return "pendingRequests" }
            if let slot = state.slots.first(where: { $0.activeRequest == id }) { return "the \(slot.kind.rawValue) slot" }
            return nil
        }

        func outcome(logStart: Int) -> SessionRerunOutcome {
            let log = state.log
            // The host's rows from the first injected message on (its row, when it is logged).
            let firstId = plan.steps.first { sentIds[$0.index] != nil && refused[$0.index] == nil }.flatMap { sentIds[$0.index] }
            let start =
                log.indices.first { $0 >= min(logStart, log.count) && log[$0].direction == .received && log[$0].correlationId == firstId }
                ?? min(logStart, log.count)
            let actual = Array(log[start...])
            // The request rows by id, in order, to read each answer's latency from its row.
            var requestRows: [String: [Int]] = [:]
            for index in log.indices.dropFirst(start) where log[index].direction == .received && log[index].type == .request {
                requestRows[log[index].correlationId, default: []].append(index)
            }
            var steps: [SessionRerunOutcome.StepOutcome] = []
            for step in plan.steps {
                let id = sentIds[step.index] ?? step.message.correlationId
                let fate: SessionRerunOutcome.Fate
                if let reason = refused[step.index] {
                    fate = .refused(reason)
                } else if !step.isRequest {
                    fate = .sent
                } else {
                    let row = requestRows[id]?.isEmpty == false ? requestRows[id]?.removeFirst() : nil
                    if let answer = answered[step.index] {
                        let latency = row.flatMap { log[$0].partner }.flatMap { log.indices.contains($0) ? log[$0].latencyMs : nil }
                        fate = .answered(status: answer.payload.status, latencyMs: latency)
                    } else if gaveUp.contains(step.index) {
                        fate = .timedOut(place: place(of: step.index))
                    } else if let place = place(of: step.index) {
                        fate = .pending(place: place)
                    } else {
                        fate = .unanswered
                    }
                }
                steps.append(SessionRerunOutcome.StepOutcome(step: step, sentId: id, fate: fate))
            }
            return SessionRerunOutcome(expected: plan.expected, actual: actual, steps: steps, frames: frames, state: state)
        }
    }
}
