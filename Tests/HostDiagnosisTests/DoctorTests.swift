import BridgeCore
import Foundation
import HostDiagnosis
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// Issue 16: "every check of the guide that the inspector can observe, each ok, warning or
/// failure, with the evidence (messages, ids, times) and the documented fix, citing the guide's
/// heading". The guide is GBGBridge's Troubleshooting page.
@Suite("Doctor")
struct DoctorTests {
    static let t0 = DiagnosisFixture.t0

    static func examine(_ wire: WireState, events: [WireEvent] = [], now: Double? = nil, thresholds: DoctorThresholds = DoctorThresholds()) -> DoctorReport {
        var state = LiveState()
        state.apply(.snapshot(seq: 100, state: wire), at: t0)
        for (offset, event) in events.enumerated() { state.apply(.event(seq: 101 + offset, event: event), at: t0) }
        return Doctor(thresholds: thresholds).examine(state, hostNow: now ?? t0 + 1000)
    }

    @Test func aHealthyHostPassesEveryCheck() {
        let messages = [
            TrafficFixture.request(seq: 1, id: "q-1", action: "capability.query", at: Self.t0),
            TrafficFixture.response(seq: 2, id: "q-1", action: "capability.query", at: Self.t0 + 3, data: [
                "capabilities": .object(["camera.document": .object(["supported": .bool(true), "version": "1.0", "permissionState": "granted"])]),
                "environment": "ios", "hostVersion": "1.0.0",
            ]),
        ]
        let report = Self.examine(DiagnosisFixture.state(messages: messages, slots: [DiagnosisFixture.slot(.document)]))
        #expect(report.status == .ok)
        #expect(report.checks.map(\.id) == DoctorCheckID.allCases)
        #expect(report.checks.allSatisfy { $0.status == .ok && $0.fix.isEmpty })
        #expect(report.failures == 0 && report.warnings == 0)
    }

    /// "Observing lastError", "Message Decoding Failures", "Messages Not Being Received by the
    /// Web Journey": the error is sorted into the page's category, with its heading and fix.
    @Test(arguments: [
        ("Failed to decode message: missing required field 'correlationId'", "Message Decoding Failures", "missing required field 'correlationId'"),
        ("evaluateJavaScript failed: TypeError: receive is not a function", "Messages Not Being Received by the Web Journey", "JavaScript evaluation failed"),
        ("WebView not attached: event 'host.ping' (e-1) was not delivered", "Messages Not Being Received by the Web Journey", "WebView not attached"),
        ("Pending request leak: 51 requests are waiting", "Pending Request Inspection", "leak"),
        ("Something else", "Observing lastError", "an error"),
    ])
    func lastErrorIsSortedIntoTheGuidesCategories(text: String, heading: String, summaryPart: String) throws {
        let error = WireError(seq: 7, time: Self.t0, text: text, cause: 6)
        let check = try #require(Self.examine(DiagnosisFixture.state(lastError: error)).check(.lastError))
        #expect(check.status == .failure)
        #expect(check.guideHeading == heading)
        #expect(check.summary.contains(summaryPart))
        #expect(!check.fix.isEmpty)
        #expect(check.evidence.first == DoctorEvidence(text, seq: 6, time: Self.t0))
    }

    /// "Messages Not Being Received by the Host": attached, nothing received for a while.
    @Test func aJourneyThatIsAbsentOrSilentFails() throws {
        let absent = try #require(Self.examine(DiagnosisFixture.state(journeyAttached: false)).check(.journey))
        #expect(absent.status == .failure)
        #expect(absent.guideHeading == "Messages Not Being Received by the Web Journey")
        // The host started 60 s before t0 and nothing has arrived.
        let silent = try #require(Self.examine(DiagnosisFixture.state()).check(.journey))
        #expect(silent.status == .failure)
        #expect(silent.guideHeading == "Messages Not Being Received by the Host")
        #expect(silent.summary.contains("gbgBridge"))
        // Just attached: not yet.
        let fresh = try #require(
            Self.examine(DiagnosisFixture.state(journeyAttached: false), events: [.journey(attached: true)], now: Self.t0 + 500).check(.journey))
        #expect(fresh.status == .ok)
        // A journey that attached again (a reload) and has sent nothing since.
        let earlier = TrafficFixture.request(seq: 1, id: "q-1", action: "capability.query", at: Self.t0 - 30_000)
        let reloaded = try #require(
            Self.examine(
                DiagnosisFixture.state(messages: [earlier]), events: [.journey(attached: false), .journey(attached: true)],
                now: Self.t0 + 11_000
            ).check(.journey))
        #expect(reloaded.status == .failure)
        #expect(reloaded.evidence.first?.time == Self.t0)
        let talking = try #require(
            Self.examine(
                DiagnosisFixture.state(messages: [earlier]),
                events: [.journey(attached: false), .journey(attached: true), .traffic(TrafficFixture.request(seq: 2, id: "q-2", action: "capability.query", at: Self.t0 + 5))],
                now: Self.t0 + 11_000
            ).check(.journey))
        #expect(talking.status == .ok)
    }

    /// "Pending Request Inspection" and the web SDK's timeouts (5 s capability.query, 30 s).
    @Test func pendingRequestsWarnAndAbandonedOnesFail() throws {
        let t0 = Self.t0
        let pending = [
            DiagnosisFixture.pending("n-1", "nfc.read", since: t0 - 31_000),
            DiagnosisFixture.pending("q-1", "capability.query", since: t0 - 6_000),
            DiagnosisFixture.pending("n-2", "nfc.read", since: t0 - 1_000),
        ]
        let report = Self.examine(DiagnosisFixture.state(pending: pending), now: t0)
        let waiting = try #require(report.check(.pendingRequests))
        #expect(waiting.status == .warning)
        #expect(waiting.evidence.map(\.correlationId) == ["n-1", "q-1", "n-2"])
        let abandoned = try #require(report.check(.abandonedRequests))
        #expect(abandoned.status == .failure)
        #expect(abandoned.evidence.map(\.correlationId) == ["n-1", "q-1"])
        #expect(abandoned.evidence.first?.text.contains("gives up after 30.0s") == true)
        // A journey that waits longer (--journey-timeout) has not given up.
        var patient = DoctorThresholds()
        patient.journeyTimeouts = JourneyTimeouts(overrideMs: 120_000)
        #expect(Self.examine(DiagnosisFixture.state(pending: pending), now: t0, thresholds: patient).check(.abandonedRequests)?.status == .ok)
        // Past the leak threshold the list "grows unexpectedly": a failure.
        let many = (0..<51).map { DiagnosisFixture.pending("p-\($0)", "nfc.read", since: t0) }
        let leak = try #require(Self.examine(DiagnosisFixture.state(pending: many), now: t0).check(.pendingRequests))
        #expect(leak.status == .failure)
        #expect(leak.evidence.count == 5 && leak.moreEvidence == 46)
    }

    /// `Typed Slot Returns "BUSY" Error`: a slot busy past the threshold names its request.
    @Test func aStuckSlotFailsAndBusyAnswersWarn() throws {
        let t0 = Self.t0
        let busyAnswer = [
            TrafficFixture.request(seq: 1, id: "d-2", action: "camera.document.capture", at: t0 - 100),
            TrafficFixture.response(seq: 2, id: "d-2", action: "camera.document.capture", at: t0 - 99, status: .error, error: BridgeErrorCode.busy.payload()),
        ]
        let justBusy = DiagnosisFixture.slot(.document, active: "d-1", since: t0 - 2_000)
        let warned = try #require(Self.examine(DiagnosisFixture.state(messages: busyAnswer, slots: [justBusy]), now: t0).check(.slotBusy))
        #expect(warned.status == .warning)
        #expect(warned.evidence.first?.text.contains("slot busy with d-1") == true)
        #expect(warned.guideHeading == "Typed Slot Returns \"BUSY\" Error")
        let stuck = DiagnosisFixture.slot(.document, active: "d-1", since: t0 - 42_000)
        let failed = try #require(Self.examine(DiagnosisFixture.state(slots: [stuck]), now: t0).check(.slotBusy))
        #expect(failed.status == .failure)
        #expect(failed.evidence.first?.correlationId == "d-1")
        #expect(failed.evidence.first?.text.contains("42") == true)
        #expect(failed.fix.contains("complete"))
    }

    /// Each lint rule feeds its check, with the row's seq as evidence.
    @Test func lintedRowsFeedTheirChecks() throws {
        let t0 = Self.t0
        let messages = [
            TrafficFixture.request(seq: 1, id: "s-1", action: "camera.selfie.capture", at: t0),
            TrafficFixture.request(seq: 2, id: "x-1", action: "device.infoo", at: t0 + 1),
            TrafficFixture.traffic(seq: 3, .received, TrafficFixture.message("r-1", .response, "device.info", at: t0 + 2, status: .success), at: t0 + 2),
        ]
        let report = Self.examine(
            DiagnosisFixture.state(
                messages: messages, pending: [DiagnosisFixture.pending("s-1", "camera.selfie.capture", since: t0), DiagnosisFixture.pending("x-1", "device.infoo", since: t0 + 1)],
                slots: [DiagnosisFixture.slot(.selfie, handler: false, permission: .notDetermined)],
                capabilities: [WireCapability(id: "device.info", version: "1.0", hasHandler: true, shadowedBySlot: false)]),
            now: t0 + 10)
        #expect(report.check(.slotUnsupported)?.status == .failure)
        #expect(report.check(.slotUnsupported)?.evidence.first?.seq == 1)
        let mismatch = try #require(report.check(.actionMismatch))
        #expect(mismatch.status == .failure)
        #expect(mismatch.evidence.first?.text.contains("did you mean device.info?") == true)
        #expect(report.check(.unknownResponses)?.status == .warning)
        #expect(report.check(.malformedInput)?.status == .ok)
        #expect(report.status == .failure)
    }

    /// Troubleshooting, "Handler Not Called for Requests": a typo in an action. A near-miss
    /// request whose row is not in the log (past the agent's `maxPendingRecords`, or out of the
    /// bounded log) is still named, from the pending records or the counts by action.
    @Test func aNearMissBeyondTheRecordsTheAgentKeepsIsStillNamed() throws {
        let t0 = Self.t0
        // 10,000 pending requests for a plain unknown action, recorded but not in the log; one for
        // a typo of a handled action that the snapshot counts by action only.
        let pending = (0..<10_000).map { DiagnosisFixture.pending("p-\($0)", "wallet.addPass", since: t0) }
        let report = Self.examine(
            DiagnosisFixture.state(
                pending: pending + [DiagnosisFixture.pending("k-1", "nfc.reed", since: t0)],
                capabilities: [
                    WireCapability(id: "device.info", version: "1.0", hasHandler: true, shadowedBySlot: false),
                    WireCapability(id: "nfc.read", version: "1.0", hasHandler: true, shadowedBySlot: false),
                ],
                counts: WireCounts(pendingOmitted: 3, pendingOmittedActions: ["device.infoo": 2, "other.thing": 1])),
            now: t0 + 10)
        let mismatch = try #require(report.check(.actionMismatch))
        #expect(mismatch.status == .failure)
        #expect(mismatch.summary.hasPrefix("3 requests for an action nobody handles"))
        #expect(mismatch.evidence.map(\.text) == [
            "2 pending requests not in the log: nobody handles device.infoo: did you mean device.info?",
            "1 pending request not in the log: nobody handles nfc.reed: did you mean nfc.read?",
        ])
        #expect(mismatch.moreEvidence == 0)
    }

    /// Through GBG's GBGBridge public API some checks cannot run, and say so.
    @Test func thePublicAPIPathSaysWhichChecksItCannotRun() {
        let report = Self.examine(DiagnosisFixture.state(
            journeyAttached: false, inspection: HostFeature.publicAPIPath,
            unsupported: [HostFeature.malformedInput.rawValue: "GBGBridge's public API shows only lastError"], receivedMessagesCap: nil))
        #expect(Set(report.notRun.map(\.id)) == [.malformedInput, .lostMessages])
        #expect(report.notRun.allSatisfy { $0.summary.hasPrefix("Cannot run:") })
        #expect(report.check(.journey)?.status == .warning)
        #expect(report.status == .warning)
    }

    /// Issue 23: a page script's report of what the host sent that could not be read is a row
    /// with its text and reason, and the doctor warns with it (heading "Messages Not Being
    /// Received by the Web Journey"); the count reaches it even when the rows are gone.
    @Test func unreadPageReportsWarn() throws {
        let unread = WireMalformed(
            seq: 3, time: Self.t0, raw: #"{"type":"response"}"#, bytes: 19, reason: "missing required field 'version'", direction: .sent)
        let report = Self.examine(DiagnosisFixture.state(
            malformed: [unread], counts: WireCounts(malformed: 1, unreadSentReports: 1), inspection: HostFeature.publicAPIPath))
        let check = try #require(report.check(.unreadSentReports))
        #expect(check.status == .warning)
        #expect(check.guideHeading == "Messages Not Being Received by the Web Journey")
        #expect(check.summary.hasPrefix("1 report of what the host sent could not be read"))
        #expect(check.evidence.first == DoctorEvidence("unread page report: missing required field 'version'", seq: 3, time: Self.t0))
        #expect(!check.fix.isEmpty)
        // Not input from the journey: the decode check does not count it.
        #expect(report.check(.malformedInput)?.status != .failure)

        // The rows left the log; the count and the last problem still reach the doctor.
        var wire = DiagnosisFixture.state(counts: WireCounts(unreadSentReports: 5), inspection: HostFeature.publicAPIPath)
        wire.lastUnreadSentReport = unread
        let counted = try #require(Self.examine(wire).check(.unreadSentReports))
        #expect(counted.status == .warning)
        #expect(counted.summary.hasPrefix("5 reports"))
        #expect(counted.evidence.count == 1 && counted.moreEvidence == 4)
        #expect(try #require(Self.examine(DiagnosisFixture.state()).check(.unreadSentReports)).status == .ok)
    }

    /// Troubleshooting page, "Messages Not Being Received by the Web Journey": "window.GBGBridge.receive
    /// not defined. The web journey must replace the no-op receive() with its own implementation."
    @Test func aDeliveryToTheNoOpReceiveFailsLostMessagesThroughThePublicAPI() throws {
        var ready = TrafficFixture.hostEvent(seq: 1, id: "ios-event-1", name: "host.ready", at: Self.t0)
        ready.lost = "the journey has not set window.GBGBridge.receive yet"
        let report = Self.examine(DiagnosisFixture.state(messages: [ready], inspection: HostFeature.publicAPIPath))
        let check = try #require(report.check(.lostMessages))
        #expect(check.status == .failure)
        #expect(check.guideHeading == "Messages Not Being Received by the Web Journey")
        #expect(check.fix.contains("window.GBGBridge.receive.toString()"))
        #expect(check.evidence.first?.text == "event host.ready: the journey has not set window.GBGBridge.receive yet")
        var state = LiveState()
        state.apply(.snapshot(seq: 1, state: DiagnosisFixture.state(messages: [ready])), at: Self.t0)
        #expect(state.log.first?.lint == .lost)
        #expect(state.log.first?.lost == ready.lost)
    }

    /// "Memory Warnings or Crashes": large payloads and receivedMessages at its cap.
    @Test func largePayloadsAndAccumulationWarn() {
        let t0 = Self.t0
        let big = TrafficFixture.request(seq: 1, id: "b-1", action: "device.info", at: t0, data: ["imageBase64": .string(String(repeating: "A", count: 2048))])
        var small = DoctorThresholds()
        small.largePayloadBytes = 1024
        let report = Self.examine(
            DiagnosisFixture.state(messages: [big], counts: WireCounts(received: 500, receivedMessages: 200)), thresholds: small)
        #expect(report.check(.largePayloads)?.status == .warning)
        #expect(report.check(.largePayloads)?.evidence.first?.seq == 1)
        #expect(report.check(.messageAccumulation)?.status == .warning)
        #expect(report.check(.messageAccumulation)?.summary.contains("cap of 200") == true)
        // At the default threshold (1 MiB) the doctor reads only the rows LiveState listed as large.
        let huge = TrafficFixture.request(
            seq: 2, id: "h-1", action: "device.info", at: t0, data: ["imageBase64": .string(String(repeating: "A", count: 1 << 20))])
        let byDefault = Self.examine(DiagnosisFixture.state(messages: [big, huge]))
        #expect(byDefault.check(.largePayloads)?.evidence.map(\.seq) == [2])
        #expect(Self.examine(DiagnosisFixture.state(messages: [big])).check(.largePayloads)?.status == .ok)
    }

    @Test func theJSONDocumentCarriesTheStatusAndEveryCheck() throws {
        let report = Self.examine(DiagnosisFixture.state(journeyAttached: false))
        let object = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        #expect(object["status"] as? String == "failure")
        #expect(object["failures"] as? Int == report.failures)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.compactMap { $0["id"] as? String } == DoctorCheckID.allCases.map(\.rawValue))
        #expect(checks.first { $0["id"] as? String == "journey" }?["guideHeading"] as? String == "Messages Not Being Received by the Web Journey")
    }
}
