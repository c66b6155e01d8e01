import BridgeCore
import Foundation
@testable import HostDiagnosis
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// The statistics view's counting that follows the log (issue 30, item 4): after every step of
/// a stream of frames, the statistics followed row by row equal those counted from scratch.
@Suite("Statistics that follow the log")
struct ActionStatisticsAccumulatorTests {
    typealias F = TrafficFixture
    static let t0: Double = 1_700_000_000_000
    static let actions = ["device.info", "camera.open", "nfc.read", "capability.query", "journey.step\u{1b}[31m"]

    /// A stream of frames made from a seed: requests, answers (every status, and none), stray
    /// answers, events both ways, malformed input, gaps, holds, edited releases, disconnects,
    /// the same agent attached again, a restarted host's snapshot, and the state replaced whole.
    struct Stream {
        var random: SplitMix64
        var state = LiveState()
        var seq = 0
        var time = ActionStatisticsAccumulatorTests.t0
        var pid = 1
        var nextId = 0
        /// Requests not answered yet: correlation id and action.
        var open: [(id: String, action: String)] = []
        /// Responses in the log: seq, correlation id, action.
        var answers: [(seq: Int, id: String, action: String)] = []

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
            attach(messages: [])
        }

        mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

        mutating func advance() -> Double {
            // Fractions of a millisecond, so latencies and held times are not round numbers.
            time += Double(int(5000)) / 7
            return time
        }

        var host: WireHostInfo { WireHostInfo(name: "demo", pid: pid, hostVersion: "1", environment: "test", startedAt: ActionStatisticsAccumulatorTests.t0 + Double(pid)) }

        mutating func attach(messages: [WireTraffic]) {
            state.apply(.snapshot(seq: seq, state: WireState(
                host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: messages, malformed: [], pending: [],
                slots: [], customCapabilities: [], counts: WireCounts())), at: time)
        }

        mutating func event(_ event: WireEvent) {
            seq += 1
            state.apply(.event(seq: seq, event: event), at: time)
        }

        mutating func request() {
            nextId += 1
            let action = ActionStatisticsAccumulatorTests.actions[int(ActionStatisticsAccumulatorTests.actions.count)]
            let id = "r\(nextId)"
            event(.traffic(F.request(seq: seq + 1, id: id, action: action, at: advance())))
            open.append((id, action))
        }

        mutating func answer() {
            guard !open.isEmpty else { return request() }
            let (id, action) = open.remove(at: int(open.count))
            let statuses: [BridgeResponseStatus?] = [.success, .success, .error, .cancelled, .unsupported, nil]
            let status = statuses[int(statuses.count)]
            let message = F.message(id, .response, action, at: advance(), status: status)
            event(.traffic(F.traffic(seq: seq + 1, .sent, message, at: time)))
            answers.append((seq, id, action))
        }

        /// A hold of an open request released after a while: its answer's held time.
        mutating func hold() {
            guard let (id, action) = open.randomElement(using: &random) else { return request() }
            let since = advance()
            let message = F.message(id, .request, action, at: since)
            event(.held(WireHeld(id: "h\(seq)", direction: .received, since: since, breakpoint: "b1", message: message)))
            event(.heldResolved(WireHeldResolution(
                id: "h\(seq - 1)", correlationId: id, direction: .received, outcome: .released, reason: .command, time: advance())))
        }

        /// An answer already logged, then held and released with another status: its row changes in place.
        mutating func editAnswer() -> Bool {
            guard let (answerSeq, id, action) = answers.randomElement(using: &random) else { return false }
            let edited = F.message(id, .response, action, at: advance(), status: .unsupported)
            let before = state.rowsEditedInPlace
            event(.heldResolved(WireHeldResolution(
                id: "e\(seq)", correlationId: id, direction: .sent, outcome: .edited, reason: .command, message: edited,
                record: answerSeq, time: time)))
            return state.rowsEditedInPlace != before
        }

        mutating func step() -> (replaced: Bool, edited: Bool) {
            switch int(100) {
            case 0..<30: request()
            case 30..<55: answer()
            case 55..<60:
                event(.traffic(F.response(seq: seq + 1, id: "stray\(seq)", action: "device.info", at: advance(), status: .error)))
            case 60..<70:
                let action = ActionStatisticsAccumulatorTests.actions[int(ActionStatisticsAccumulatorTests.actions.count)]
                event(.traffic(F.hostEvent(seq: seq + 1, id: "ev\(seq)", name: action, at: advance())))
            case 70..<75:
                event(.traffic(F.traffic(seq: seq + 1, .received, F.message("jev\(seq)", .event, "journey.step", at: advance()), at: time)))
            case 75..<78:
                event(.malformed(WireMalformed(seq: seq + 1, time: advance(), raw: "{\"correlationId\":\"m\"}", bytes: 21, reason: "missing 'type'")))
            case 78..<80:
                seq += 3
                state.apply(.gap(from: seq - 2, to: seq), at: advance())
            case 80..<86: hold()
            case 86..<89: return (false, editAnswer())
            case 89..<92:
                // Lost and found again: the same agent's snapshot, nothing new in it.
                state.markDisconnected(at: advance())
                attach(messages: [])
            case 92..<95:
                // The host ran again: its snapshot's rows join the log; old requests stay unanswered.
                pid += 1
                open.removeAll()
                answers.removeAll()
                seq = 0
                let id = "restart\(pid)"
                seq += 1
                let request = F.request(seq: seq, id: id, action: "device.info", at: advance())
                seq += 1
                let response = F.response(seq: seq, id: id, action: "device.info", at: advance())
                attach(messages: [request, response])
            case 95..<97:
                // The state replaced whole (another session), shorter or longer than the one followed.
                var other = Stream(seed: random.next())
                for _ in 0..<int(40) { _ = other.step() }
                self = other
                return (true, false)
            default:
                for _ in 0..<3 { request() }
            }
            return (false, false)
        }
    }

    @Test("followed after every step of a stream of frames, the statistics equal a count from scratch", arguments: [1, 2, 3, 42, 2026])
    func followsExactly(seed: UInt64) {
        var stream = Stream(seed: seed)
        var followed = ActionStatisticsAccumulator()
        var expectedRecounts = 0
        var batchNeedsRecount = false
        var mostAnswered = 0
        var sawHeld = false
        var steps = 0
        var random = SplitMix64(seed: seed &+ 99)
        while steps < 1500 {
            // Frames arrive in batches of 1 to 8 between two looks.
            for _ in 0...Int(random.next() % 8) {
                let (replaced, edited) = stream.step()
                batchNeedsRecount = batchNeedsRecount || replaced || edited
                steps += 1
            }
            let counted = followed.countedRows
            followed.follow(stream.state)
            // Counted again from the start when a row was counted before (none: it starts there anyway).
            if batchNeedsRecount && counted > 0 { expectedRecounts += 1 }
            batchNeedsRecount = false
            #expect(followed.statistics == ActionStatistics(log: stream.state.log), "step \(steps), seed \(seed)")
            #expect(followed.countedRows == stream.state.log.count)
            mostAnswered = max(mostAnswered, followed.statistics.total.answered)
            sawHeld = sawHeld || followed.statistics.total.held > 0
        }
        // Only the replacements and edits were counted again from the start, not every look.
        #expect(followed.recounts == expectedRecounts)
        // The stream met what it is meant to: many answers, and some held on the way.
        #expect(mostAnswered > 20)
        #expect(sawHeld)
        #expect(expectedRecounts > 0)
    }

    @Test("rows that only arrive are counted once: a look with nothing new counts nothing again")
    func appendsOnly() {
        var stream = Stream(seed: 7)
        var followed = ActionStatisticsAccumulator(following: stream.state)
        for _ in 0..<200 {
            stream.request()
            stream.answer()
            followed.follow(stream.state)
            let changed = followed.follow(stream.state)
            #expect(!changed)
        }
        #expect(followed.recounts == 0)
        #expect(followed.statistics == ActionStatistics(log: stream.state.log))
        #expect(followed.statistics.total.requests >= 200)
    }

    @Test("a logged answer released edited changes its status: the log is counted again, and the edit shows")
    func editedAnswer() {
        var stream = Stream(seed: 11)
        stream.request()
        stream.answer()
        var followed = ActionStatisticsAccumulator(following: stream.state)
        let answeredBefore = followed.statistics.total.answered
        #expect(answeredBefore == 1)
        let edited = stream.editAnswer()
        #expect(edited)
        followed.follow(stream.state)
        #expect(followed.recounts == 1)
        #expect(followed.statistics.total.count(.unsupported) == 1)
        #expect(followed.statistics == ActionStatistics(log: stream.state.log))
    }

    @Test("a state replaced by a shorter one, or by another of the same length, is counted from scratch")
    func replaced() {
        var long = Stream(seed: 5)
        for _ in 0..<30 { long.request(); long.answer() }
        var followed = ActionStatisticsAccumulator(following: long.state)
        var short = Stream(seed: 6)
        short.request()
        followed.follow(short.state)
        #expect(followed.recounts == 1)
        #expect(followed.statistics == ActionStatistics(log: short.state.log))
        // Another history of exactly the length counted: the last row counted differs.
        var twin = Stream(seed: 8)
        twin.time += 1
        twin.request()
        #expect(twin.state.log.count == short.state.log.count)
        followed.follow(twin.state)
        #expect(followed.recounts == 2)
        #expect(followed.statistics == ActionStatistics(log: twin.state.log))
    }

    @Test("running percentiles equal the selected nearest-rank ones, added one by one or in batches of any size")
    func runningPercentiles() {
        var random = SplitMix64(seed: 30)
        for shape in 0..<40 {
            var stream = Stream(seed: UInt64(shape))
            var followed = ActionStatisticsAccumulator(following: stream.state)
            let answers = 1 + Int(random.next() % 300)
            var added = 0
            while added < answers {
                // Batches from 1 to larger than all before: both the push and the rebuild paths.
                let batch = 1 + Int(random.next() % UInt64(max(1, added + 2)))
                for _ in 0..<batch {
                    stream.request()
                    stream.answer()
                }
                added += batch
                followed.follow(stream.state)
                let scratch = ActionStatistics(log: stream.state.log)
                #expect(followed.statistics.total.latency == scratch.total.latency, "shape \(shape), \(added) answers")
                #expect(followed.statistics == scratch)
            }
        }
    }

    @Test("running latencies give the nearest-rank p50, p95 and max of LatencySummary, with many equal values")
    func runningLatenciesWithTies() {
        var random = SplitMix64(seed: 77)
        for shape in 0..<60 {
            var running = RunningLatencies()
            var all: [Double] = []
            let distinct = 1 + shape % 7
            while all.count < 5 * shape + 1 {
                let batch = 1 + Int(random.next() % UInt64(all.count + 3))
                for _ in 0..<batch {
                    let value = Double(random.next() % UInt64(distinct)) * 1.5
                    running.append(value)
                    all.append(value)
                }
                running.settle()
                #expect(running.summary == LatencySummary(latencies: all), "shape \(shape), \(all.count) values")
            }
        }
        #expect(RunningLatencies().summary == nil)
    }
}
