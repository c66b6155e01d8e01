import BridgeCore
import Foundation
import HostDiagnosis
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// Per-action statistics (issue 16, part 3) from an inspector's threaded log.
@Suite("Per-action statistics")
struct ActionStatisticsTests {
    typealias F = TrafficFixture
    static let t0: Double = 1_700_000_000_000

    /// A log built the way the inspector builds it: every record applied as an event.
    static func log(_ events: [WireEvent], markers: Bool = false) -> [LogEntry] {
        var state = LiveState()
        let host = WireHostInfo(name: "demo", pid: 1, hostVersion: "1", environment: "test", startedAt: t0)
        state.apply(.snapshot(seq: 0, state: WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: [], malformed: [], pending: [],
            slots: [], customCapabilities: [], counts: WireCounts())), at: t0)
        for (index, event) in events.enumerated() {
            state.apply(.event(seq: index + 1, event: event), at: t0)
            if markers, index == 0 {
                state.apply(.gap(from: 100, to: 120), at: t0)
                state.markDisconnected(at: t0)
            }
        }
        return state.log
    }

    /// `count` requests for `action`, each answered `latencies[i]` ms later with `status`.
    static func answered(_ action: String, latencies: [Double], status: BridgeResponseStatus = .success, idPrefix: String) -> [WireEvent] {
        var events: [WireEvent] = []
        for (index, latency) in latencies.enumerated() {
            let at = t0 + Double(index) * 10_000
            events.append(.traffic(F.request(seq: 0, id: "\(idPrefix)-\(index)", action: action, at: at)))
            events.append(.traffic(F.response(seq: 0, id: "\(idPrefix)-\(index)", action: action, at: at + latency, status: status)))
        }
        return events
    }

    @Test("an empty log has no rows and a total of zeros, no error rate and no latency")
    func emptyLog() {
        let stats = ActionStatistics(log: [])
        #expect(stats.actions.isEmpty)
        #expect(stats.total.requests == 0)
        #expect(stats.total.answered == 0)
        #expect(stats.total.errorRate == nil)
        #expect(stats.total.latency == nil)
        #expect(StatisticsTable.summary(stats) == "0 requests for 0 actions: 0 answered, 0 unanswered; 0 events")
    }

    @Test("requests never answered count as unanswered, not as errors: no error rate, no latency")
    func unansweredOnly() {
        let stats = ActionStatistics(log: Self.log([
            .traffic(F.request(seq: 0, id: "n1", action: "nfc.read", at: Self.t0)),
            .traffic(F.request(seq: 0, id: "n2", action: "nfc.read", at: Self.t0 + 1)),
        ]))
        #expect(stats.actions.count == 1)
        let row = stats.actions[0]
        #expect(row.action == "nfc.read")
        #expect(row.requests == 2)
        #expect(row.answered == 0)
        #expect(row.unanswered == 2)
        #expect(row.errorRate == nil)
        #expect(row.latency == nil)
    }

    @Test("nearest-rank percentiles of 1...20 ms: p50 10, p95 19, max 20; of one latency, that latency three times")
    func percentilesOnAKnownSet() {
        // Answered in shuffled order, so the sort is what makes the ranks.
        let latencies: [Double] = [7, 20, 1, 14, 3, 18, 10, 5, 12, 16, 2, 19, 9, 4, 13, 11, 6, 17, 8, 15]
        let stats = ActionStatistics(log: Self.log(Self.answered("device.info", latencies: latencies, idPrefix: "d")))
        #expect(stats.actions.first?.latency == LatencySummary(p50: 10, p95: 19, max: 20))
        #expect(LatencySummary(latencies: [42]) == LatencySummary(p50: 42, p95: 42, max: 42))
        // Ranks ⌈p·n/100⌉: of 4 values p50 is the 2nd, p95 the 4th.
        #expect(LatencySummary(latencies: [40, 10, 30, 20]) == LatencySummary(p50: 20, p95: 40, max: 40))
        #expect(LatencySummary(latencies: []) == nil)
    }

    /// The percentiles are selected, not sorted: they must be exactly the sorted list's
    /// nearest-rank values, whatever the order and however many latencies are equal.
    @Test("selected percentiles equal the sorted nearest-rank values: random, many equal, ascending, descending, 1 to 2,000 values")
    func selectionMatchesSorting() {
        // Scattered without a generator: multiplying by a large odd constant (Knuth's) mixes
        // the index, the same on every run.
        func scattered(_ index: Int, _ modulus: UInt64) -> Double { Double((UInt64(index) &* 2_654_435_761) % modulus) }
        for count in [1, 2, 3, 4, 5, 19, 20, 21, 100, 101, 999, 2_000] {
            let shapes: [[Double]] = [
                (0..<count).map { scattered($0, 10_007) / 10 },
                (0..<count).map { scattered($0, 3) },  // mostly equal
                (0..<count).map(Double.init),
                (0..<count).reversed().map(Double.init),
                Array(repeating: 7, count: count),
            ]
            for latencies in shapes {
                let sorted = latencies.sorted()
                func nearestRank(_ percent: Int) -> Double { sorted[max(1, (percent * count + 99) / 100) - 1] }
                let expected = LatencySummary(p50: nearestRank(50), p95: nearestRank(95), max: sorted[count - 1])
                #expect(LatencySummary(latencies: latencies) == expected, "\(count) values: \(latencies.prefix(8))…")
            }
        }
    }

    @Test("statuses, error rate (answers not success ÷ answered) and events per action; sorted by requests, then events, then name")
    func statusesAndErrorRate() {
        var events: [WireEvent] = []
        events += Self.answered("location.get", latencies: [5, 7], status: .error, idPrefix: "l")
        events += Self.answered("document.upload", latencies: [100, 200, 300], idPrefix: "u")
        events += Self.answered("document.upload", latencies: [400], status: .cancelled, idPrefix: "uc")
        events += Self.answered("camera.selfie.capture", latencies: [1], status: .unsupported, idPrefix: "s")
        events.append(.traffic(F.request(seq: 0, id: "u-open", action: "document.upload", at: Self.t0)))
        events.append(.traffic(F.hostEvent(seq: 0, id: "e1", name: "host.ready", at: Self.t0)))
        events.append(.traffic(F.traffic(seq: 0, .received, F.message("e2", .event, "journey.step", at: Self.t0), at: Self.t0)))
        events.append(.traffic(F.traffic(seq: 0, .received, F.message("e3", .event, "journey.step", at: Self.t0), at: Self.t0)))
        let stats = ActionStatistics(log: Self.log(events))
        #expect(stats.actions.map(\.action) == ["document.upload", "location.get", "camera.selfie.capture", "journey.step", "host.ready"])
        let upload = stats.actions[0]
        #expect(upload.requests == 5)
        #expect(upload.answered == 4)
        #expect(upload.unanswered == 1)
        #expect(upload.count(.success) == 3)
        #expect(upload.count(.cancelled) == 1)
        #expect(upload.errorRate == 0.25)
        #expect(upload.latency == LatencySummary(p50: 200, p95: 400, max: 400))
        #expect(stats.actions[1].errorRate == 1)
        #expect(stats.actions[1].count(.error) == 2)
        #expect(stats.actions[2].errorRate == 1)
        #expect(stats.actions[3].events == 2)
        #expect(stats.actions[3].requests == 0)
        #expect(stats.actions[4].events == 1)
        #expect(stats.total.requests == 8)
        #expect(stats.total.answered == 7)
        #expect(stats.total.events == 3)
        // All seven latencies sorted: 1 5 7 100 200 300 400; p50 is rank ⌈3.5⌉ = 4.
        #expect(stats.total.latency == LatencySummary(p50: 100, p95: 400, max: 400))
        // 2 errors, 1 cancelled, 1 unsupported of 7 answers.
        #expect(StatisticsTable.percent(stats.total.errorRate) == "57.1%")
    }

    @Test("malformed input, markers and responses that answer nothing are left out")
    func markersAndMalformedIgnored() {
        let log = Self.log([
            .traffic(F.request(seq: 0, id: "a", action: "device.info", at: Self.t0)),
            .malformed(WireMalformed(seq: 0, time: Self.t0, raw: "{\"correlationId\":\"a\"}", bytes: 21, reason: "missing required field 'type'")),
            .traffic(F.response(seq: 0, id: "a", action: "device.info", at: Self.t0 + 120)),
            .traffic(F.response(seq: 0, id: "ghost", action: "device.info", at: Self.t0 + 130, status: .error)),
        ], markers: true)
        #expect(log.count == 6)  // request, gap, disconnected, malformed, response, stray response
        let stats = ActionStatistics(log: log)
        #expect(stats.actions.count == 1)
        #expect(stats.actions[0].requests == 1)
        #expect(stats.actions[0].answered == 1)
        #expect(stats.actions[0].errorRate == 0)
        #expect(stats.actions[0].latency == LatencySummary(p50: 120, p95: 120, max: 120))
    }

    @Test("the JSON names every field, with null where there is no value and latencies in milliseconds")
    func json() throws {
        var events = Self.answered("device.info", latencies: [120], idPrefix: "d")
        events.append(.traffic(F.request(seq: 0, id: "n", action: "nfc.read", at: Self.t0)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(ActionStatistics(log: Self.log(events))), as: UTF8.self)
        #expect(json == """
            {"actions":[\
            {"action":"device.info","answered":1,"errorRate":0,"events":0,"held":0,"heldMs":0,"latencyMs":{"max":120,"p50":120,"p95":120},"requests":1,\
            "statuses":{"cancelled":0,"error":0,"success":1,"unsupported":0},"unanswered":0},\
            {"action":"nfc.read","answered":0,"errorRate":null,"events":0,"held":0,"heldMs":0,"latencyMs":null,"requests":1,\
            "statuses":{"cancelled":0,"error":0,"success":0,"unsupported":0},"unanswered":1}],\
            "total":{"answered":1,"errorRate":0,"events":0,"held":0,"heldMs":0,"latencyMs":{"max":120,"p50":120,"p95":120},"requests":2,\
            "statuses":{"cancelled":0,"error":0,"success":1,"unsupported":0},"unanswered":1}}
            """)
    }

    @Test("the table aligns the action left and numbers right, action names made safe by the caller")
    func table() {
        var events = Self.answered("device.info", latencies: [120, 1_500], idPrefix: "d")
        events.append(.traffic(F.request(seq: 0, id: "x", action: "evil\u{1B}]0;x", at: Self.t0)))
        let stats = ActionStatistics(log: Self.log(events))
        let lines = StatisticsTable.lines(stats, safe: { $0.replacingOccurrences(of: "\u{1B}", with: "\\e") }, width: { $0.count })
        #expect(lines == [
            "ACTION       REQUESTS  ANSWERED  UNANSWERED  ERRORS  ERROR RATE    P50   P95   MAX  EVENTS",
            "device.info         2         2           0       0          0%  120ms  1.5s  1.5s       0",
            "evil\\e]0;x          1         0           1       0           -      -     -     -       0",
        ])
        #expect(StatisticsTable.summary(stats) == "3 requests for 2 actions: 2 answered, 1 unanswered; error rate 0%; latency p50 120ms, p95 1.5s, max 1.5s; 0 events")
    }

    @Test("100,000 rows are counted exactly")
    func largeLog() {
        var events: [WireEvent] = []
        for index in 0..<50_000 {
            let action = index % 2 == 0 ? "a.even" : "b.odd"
            events.append(.traffic(F.request(seq: 0, id: "r\(index)", action: action, at: Self.t0)))
            events.append(.traffic(F.response(seq: 0, id: "r\(index)", action: action, at: Self.t0 + Double(index % 100), status: index % 10 == 0 ? .error : .success)))
        }
        let stats = ActionStatistics(log: Self.log(events))
        #expect(stats.total.requests == 50_000)
        #expect(stats.total.answered == 50_000)
        #expect(stats.total.count(.error) == 5_000)
        #expect(stats.actions.map(\.action) == ["a.even", "b.odd"])
        #expect(stats.total.latency == LatencySummary(p50: 49, p95: 94, max: 99))
    }
}
