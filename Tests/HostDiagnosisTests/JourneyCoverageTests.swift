import BridgeCore
import Foundation
import HostDiagnosis
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// The journey's coverage (issue 29, item 4): what a known session met, how the journey
/// answered each unhappy path, and what it never met.
@Suite("Journey coverage")
struct JourneyCoverageTests {
    typealias F = TrafficFixture
    static let t0: Double = 1_700_000_000_000

    /// A state built as the inspector builds it: a snapshot declaring `capabilities`, then every record as an event.
    static func state(_ records: [WireTraffic], capabilities: [WireCapability] = []) -> LiveState {
        var state = LiveState()
        let host = WireHostInfo(name: "demo", pid: 1, hostVersion: "1", environment: "test", startedAt: t0)
        state.apply(.snapshot(seq: 0, state: WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: [], malformed: [], pending: [],
            slots: [], customCapabilities: capabilities, counts: WireCounts())), at: t0)
        for (index, record) in records.enumerated() { state.apply(.event(seq: index + 1, event: .traffic(record)), at: t0) }
        return state
    }

    static func error(_ code: BridgeErrorCode) -> BridgeErrorPayload { code.payload() }

    static func journeyEvent(_ name: String, id: String, at time: Double) -> WireTraffic {
        F.traffic(seq: 0, .received, F.message(id, .event, name, at: time), at: time)
    }

    /// The known session: a BUSY then a retry 1,200 ms later, an INTERNAL_ERROR retried anyway
    /// after 300 ms, a cancelled capture followed by journey.cancel 20 ms later, an undocumented
    /// recoverable code left alone, a BUSY a person typed (✎), and nfc.read never answered.
    static let session: LiveState = {
        let t = t0
        let capabilities = [
            WireCapability(id: "device.info", version: "1", hasHandler: true, shadowedBySlot: false),
            WireCapability(id: "location.get", version: "1", hasHandler: true, shadowedBySlot: false),
            WireCapability(id: "passport.read", version: "1", hasHandler: false, shadowedBySlot: false),
        ]
        return state([
            F.hostEvent(seq: 0, id: "ios-event-1", name: "host.ready", at: t + 1),
            F.request(seq: 0, id: "q1", action: "capability.query", at: t),
            F.response(seq: 0, id: "q1", action: "capability.query", at: t + 10),
            F.request(seq: 0, id: "d1", action: "camera.document.capture", at: t + 100),
            F.response(seq: 0, id: "d1", action: "camera.document.capture", at: t + 110, status: .error, error: error(.busy)),
            F.request(seq: 0, id: "d2", action: "camera.document.capture", at: t + 1310),
            F.response(seq: 0, id: "d2", action: "camera.document.capture", at: t + 2000),
            F.request(seq: 0, id: "i1", action: "device.info", at: t + 3000),
            F.response(seq: 0, id: "i1", action: "device.info", at: t + 3050, status: .error, error: error(.internalError)),
            F.request(seq: 0, id: "i2", action: "device.info", at: t + 3350),
            F.response(seq: 0, id: "i2", action: "device.info", at: t + 3400),
            F.request(seq: 0, id: "s1", action: "camera.selfie.capture", at: t + 4000),
            F.response(seq: 0, id: "s1", action: "camera.selfie.capture", at: t + 4100, status: .cancelled),
            journeyEvent("journey.cancel", id: "c1", at: t + 4120),
            F.request(seq: 0, id: "n1", action: "nfc.read", at: t + 5000),
            F.request(seq: 0, id: "l1", action: "location.get", at: t + 6000),
            F.response(
                seq: 0, id: "l1", action: "location.get", at: t + 6010, status: .error,
                error: BridgeErrorPayload(code: "LOCATION_UNAVAILABLE", message: "no fix", recoverable: true)),
            F.request(seq: 0, id: "i3", action: "device.info", at: t + 7000),
            F.response(seq: 0, id: "i3", action: "device.info", at: t + 7100, status: .error, error: error(.busy), origin: .inspector),
        ], capabilities: capabilities)
    }()

    @Test("a known session: actions, statuses, codes and events met, with counts and the inspector's share")
    func metWithCounts() throws {
        let coverage = JourneyCoverage(state: Self.session, now: Self.t0 + 100_000)
        #expect(coverage.actions.map(\.action) == [
            "capability.query", "camera.document.capture", "camera.selfie.capture", "device.info", "location.get", "passport.read",
        ])
        #expect(coverage.actions.map(\.source) == [.capabilityQuery, .capture, .capture, .custom, .custom, .custom])
        #expect(coverage.otherActions.map(\.action) == ["nfc.read"])
        #expect(coverage.otherActions.first?.unanswered == 1)
        let document = try #require(coverage.actions.first { $0.action == "camera.document.capture" })
        #expect(document.requests == CoverageCount(count: 2))
        #expect(document.statuses == [.success: CoverageCount(count: 1), .error: CoverageCount(count: 1)])
        #expect(document.errorCodes == ["BUSY": CoverageCount(count: 1)])
        let device = try #require(coverage.actions.first { $0.action == "device.info" })
        #expect(device.requests == CoverageCount(count: 3))
        #expect(device.errorCodes == ["INTERNAL_ERROR": CoverageCount(count: 1), "BUSY": CoverageCount(count: 1, inspectorMade: 1)])
        #expect(coverage.statuses.map(\.answers) == [
            CoverageCount(count: 3), CoverageCount(count: 4, inspectorMade: 1), CoverageCount(count: 1), CoverageCount(),
        ])
        #expect(coverage.errorCodes.filter { $0.answers.met }.map(\.code) == [.busy, .internalError])
        #expect(coverage.errorCodes.first { $0.code == .busy }?.answers == CoverageCount(count: 2, inspectorMade: 1))
        #expect(coverage.undocumentedErrorCodes.map(\.code) == ["LOCATION_UNAVAILABLE"])
        #expect(coverage.events.filter { $0.sent.met }.map(\.event.name) == ["host.ready", "journey.cancel"])
    }

    @Test("never met: the declared action, the status, the documented codes and events the session did not exercise")
    func neverMet() {
        let never = JourneyCoverage(state: Self.session, now: Self.t0 + 100_000).neverMet
        #expect(never.actions == ["passport.read"])
        #expect(never.statuses == [.unsupported])
        #expect(never.errorCodes == ["UNSUPPORTED", "PERMISSION_DENIED", "CANCELLED", "TIMEOUT", "INVALID_REQUEST", "VERSION_MISMATCH"])
        #expect(never.hostEvents == ["host.ping", "host.background", "host.foreground", "host.orientation"])
        #expect(never.journeyEvents == [])
        #expect(never.journeyTimeout == false)
    }

    @Test("how the journey answered: BUSY retried after 1,200 ms, INTERNAL_ERROR retried anyway (a finding), journey.cancel 20 ms after CANCELLED, give-ups, nfc.read's timeout")
    func reactions() {
        let paths = JourneyCoverage(state: Self.session, now: Self.t0 + 100_000).unhappyPaths
        #expect(paths.map(\.correlationId) == ["d1", "i1", "s1", "l1", "i3", "n1"])
        #expect(paths.map(\.label) == ["BUSY", "INTERNAL_ERROR", "cancelled", "LOCATION_UNAVAILABLE", "BUSY", "no answer in 30.0s"])
        #expect(paths.map(\.reaction) == [.retried(afterMs: 1200), .retriedNonRecoverable(afterMs: 300), .gaveUp, .gaveUp, .gaveUp, .gaveUp])
        #expect(paths.map(\.recoverable) == [true, false, true, true, true, true])
        #expect(paths.map(\.inspectorMade) == [false, false, false, false, true, false])
        #expect(paths.map(\.journeyCancelAfterMs) == [nil, nil, 20, nil, nil, nil])
        #expect(paths.last?.time == Self.t0 + 5000 + 30_000)
    }

    @Test("before the window runs out nothing is decided: no retry yet, and a request younger than its timeout is no give-up")
    func undecidedWhileTheWindowRuns() {
        let coverage = JourneyCoverage(state: Self.session, now: Self.t0 + 8000)
        #expect(coverage.unhappyPaths.map(\.correlationId) == ["d1", "i1", "s1", "l1", "i3"])
        #expect(coverage.unhappyPaths.map(\.reaction) == [.retried(afterMs: 1200), .retriedNonRecoverable(afterMs: 300), .waiting, .waiting, .waiting])
        #expect(coverage.neverMet.journeyTimeout)
    }

    @Test("an answer after the journey's timeout reached no one: a timeout, not the answer's status; a retry then counts from the timeout")
    func lateAnswerIsATimeout() {
        let t = Self.t0
        let state = Self.state([
            F.request(seq: 0, id: "q1", action: "capability.query", at: t),
            F.response(seq: 0, id: "q1", action: "capability.query", at: t + 6000, status: .error, error: Self.error(.internalError)),
            F.request(seq: 0, id: "q2", action: "capability.query", at: t + 5500),
            F.response(seq: 0, id: "q2", action: "capability.query", at: t + 5600),
        ])
        let coverage = JourneyCoverage(state: state, now: t + 60_000)
        #expect(coverage.unhappyPaths.map(\.label) == ["no answer in 5.0s"])
        #expect(coverage.unhappyPaths.first?.reaction == .retried(afterMs: 500))
        // Statuses count every answer the host sent, late or not.
        #expect(coverage.statuses.first { $0.status == .error }?.answers == CoverageCount(count: 1))
    }

    @Test("a request an inspector injected counts as met (✎) but is not the journey's unhappy path, nor its retry")
    func injectedRequests() {
        let t = Self.t0
        var injected = F.request(seq: 0, id: "x1", action: "camera.document.capture", at: t)
        injected.origin = .inspector
        var retry = F.request(seq: 0, id: "x2", action: "camera.document.capture", at: t + 200)
        retry.origin = .inspector
        let state = Self.state([
            injected,
            F.response(seq: 0, id: "x1", action: "camera.document.capture", at: t + 10, status: .error, error: Self.error(.busy)),
            retry,
        ])
        let coverage = JourneyCoverage(state: state, now: t + 60_000)
        #expect(coverage.actions.first { $0.action == "camera.document.capture" }?.requests == CoverageCount(count: 2, inspectorMade: 2))
        #expect(coverage.errorCodes.first { $0.code == .busy }?.answers == CoverageCount(count: 1, inspectorMade: 1))
        #expect(coverage.unhappyPaths.isEmpty)
    }

    @Test("faulted traffic: a fault's BUSY counts as met and as the inspector's; an answer or event a fault kept from the journey was never met")
    func faultedTraffic() {
        let t = Self.t0
        var busy = F.response(seq: 0, id: "d1", action: "camera.document.capture", at: t + 10, status: .error, error: Self.error(.busy))
        busy.fault = FaultMark(rule: "f1", effect: .errored, detail: "BUSY")
        var swallowed = F.response(seq: 0, id: "i1", action: "device.info", at: t + 1_010)
        swallowed.fault = FaultMark(rule: "f2", effect: .neverAnswered)
        var droppedEvent = F.hostEvent(seq: 0, id: "ios-event-1", name: "host.background", at: t + 2_000)
        droppedEvent.fault = FaultMark(rule: "f3", effect: .dropped)
        var infoRequest = F.request(seq: 0, id: "i1", action: "device.info", at: t + 1_000)
        infoRequest.fault = FaultMark(rule: "f2", effect: .neverAnswered)
        let state = Self.state([
            F.request(seq: 0, id: "d1", action: "camera.document.capture", at: t),
            busy,
            F.request(seq: 0, id: "d2", action: "camera.document.capture", at: t + 500),
            infoRequest,
            swallowed,
            droppedEvent,
        ])
        let coverage = JourneyCoverage(state: state, now: t + 100_000)
        #expect(coverage.errorCodes.first { $0.code == .busy }?.answers == CoverageCount(count: 1, inspectorMade: 1))
        // The swallowed success never reached the journey: a timeout for it, not a success.
        #expect(coverage.statuses.first { $0.status == .success }?.answers == CoverageCount(count: 0))
        // d2, the retry, was never answered at all: the journey's own timeout, the app's doing.
        #expect(coverage.unhappyPaths.map(\.correlationId) == ["d1", "d2", "i1"])
        #expect(coverage.unhappyPaths.map(\.inspectorMade) == [true, false, true])
        #expect(coverage.unhappyPaths.first?.reaction == .retried(afterMs: 490))
        #expect(coverage.unhappyPaths.last?.label == "no answer in 30.0s")
        #expect(coverage.events.first { $0.event.name == "host.background" }?.sent == CoverageCount(count: 0))
    }

    @Test("the table: summary, marks, the reactions in words, never-met lists; hostile text made safe by the caller's function")
    func table() {
        let t = Self.t0
        var state = Self.session
        state.apply(.event(seq: 99, event: .traffic(F.request(seq: 0, id: "evil", action: "evil\u{1B}]0;x\u{07}", at: t + 9000))), at: t)
        let coverage = JourneyCoverage(state: state, now: t + 100_000)
        let lines = CoverageTable.lines(coverage, safe: { $0.replacingOccurrences(of: "\u{1B}", with: "\\e").replacingOccurrences(of: "\u{07}", with: "\\a") }, width: { $0.count })
        let text = lines.map(\.text)
        #expect(text.first == "5 of 6 actions, 3 of 4 statuses, 2 of 8 error codes, 2 of 6 events met; 7 unhappy paths (1 retried, 1 finding)")
        #expect(text.contains { $0.hasPrefix("camera.document.capture") && $0.contains("✓") && $0.contains("success 1, error 1") && $0.hasSuffix("BUSY 1") })
        #expect(text.contains { $0.hasPrefix("device.info") && $0.contains("BUSY 1 (✎ 1)") })
        #expect(text.contains { $0.hasPrefix("unsupported") && $0.contains("–") })
        #expect(text.contains { $0.contains("d1") && $0.hasSuffix("retried after 1.2s") })
        #expect(lines.contains { $0.style == .finding && $0.text.contains("INTERNAL_ERROR") && $0.text.contains("⚑ retried after 300ms, though not recoverable") })
        #expect(text.contains { $0.contains("s1") && $0.hasSuffix("gave up (no retry); sent journey.cancel after 20ms") })
        #expect(text.contains { $0.contains("BUSY ✎") && $0.contains("i3") })
        #expect(text.contains("host events: host.ping, host.background, host.foreground, host.orientation"))
        #expect(text.contains("statuses: unsupported"))
        #expect(text.contains("journey timeout: met"))
        #expect(text.contains("journey events: all met"))
        #expect(text.contains { $0.hasPrefix("evil\\e]0;x\\a") })
        #expect(!text.joined().unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("the JSON: versioned, every documented item listed, the reactions by name")
    func json() throws {
        let coverage = JourneyCoverage(state: Self.session, now: Self.t0 + 100_000)
        let data = try JSONEncoder().encode(coverage)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(root["version"] as? Int == 1)
        #expect(root["reactionWindowMs"] as? Double == 30_000)
        #expect((root["errorCodes"] as? [[String: Any]])?.count == BridgeErrorCode.allCases.count)
        let busy = try #require((root["errorCodes"] as? [[String: Any]])?.first { $0["code"] as? String == "BUSY" })
        #expect(busy["recoverable"] as? Bool == true)
        #expect((busy["answers"] as? [String: Int]) == ["count": 2, "inspectorMade": 1])
        let paths = try #require(root["unhappyPaths"] as? [[String: Any]])
        #expect(paths.map { $0["reaction"] as? String } == ["retried", "retriedNonRecoverable", "gaveUp", "gaveUp", "gaveUp", "gaveUp"])
        #expect(paths.first?["retryAfterMs"] as? Double == 1200)
        #expect(paths.first?["errorCode"] as? String == "BUSY")
        #expect(paths[2]["journeyCancelAfterMs"] as? Double == 20)
        #expect(paths[2]["errorCode"] is NSNull)
        #expect(paths.last?["met"] as? String == "journeyTimeout")
        let never = try #require(root["neverMet"] as? [String: Any])
        #expect(never["statuses"] as? [String] == ["unsupported"])
        #expect(never["journeyTimeout"] as? Bool == false)
        let events = try #require(root["events"] as? [[String: Any]])
        #expect(events.first?["name"] as? String == "host.ready")
        #expect(events.first?["sender"] as? String == "host")
        #expect(events.first?["met"] as? Bool == true)
        #expect((root["otherActions"] as? [[String: Any]])?.first?["source"] as? String == "other")
    }
}
