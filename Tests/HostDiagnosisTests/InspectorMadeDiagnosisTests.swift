import BridgeCore
import Foundation
import HostDiagnosis
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// Issue 27, traps 4 and 7: what an inspector made is not blamed on the app, and what the doctor
/// and the statistics say is true (the slot a fix names, the order of the checks, latency
/// without breakpoint holds).
@Suite("Diagnosis: inspector-made messages, slot fixes, check order, held latency")
struct InspectorMadeDiagnosisTests {
    static let t0 = DiagnosisFixture.t0

    static func state(_ wire: WireState, events: [WireEvent] = []) -> LiveState {
        var state = LiveState()
        state.apply(.snapshot(seq: 100, state: wire), at: t0)
        for (offset, event) in events.enumerated() { state.apply(.event(seq: 101 + offset, event: event), at: t0) }
        return state
    }

    /// A slot completion of 1.2 MB: Base64 image data, as the old synthetic PNG made.
    static func bigCompletion(seq: Int, origin: MessageOrigin) -> WireTraffic {
        TrafficFixture.response(
            seq: seq, id: "doc-1", action: "camera.document.capture", at: t0 + 5,
            data: ["imageBase64": .string(String(repeating: "A", count: 1_230_000)), "imageWidth": 1280, "imageHeight": 720, "mimeType": "image/png"],
            origin: origin)
    }

    @Test("an inspector's 1.2 MB slot completion is shown with its mark but counts in neither the lint count nor the doctor's verdict")
    func inspectorMadeLargePayload() throws {
        let request = TrafficFixture.request(seq: 1, id: "doc-1", action: "camera.document.capture", at: Self.t0)
        let made = Self.state(DiagnosisFixture.state(messages: [request, Self.bigCompletion(seq: 2, origin: .inspector)], slots: [DiagnosisFixture.slot(.document)]))
        let row = try #require(made.log.last)
        #expect(row.lint == .largePayload, "the mark is still shown")
        #expect(!row.countsAsLint)
        #expect(made.lintCount == 0, "the status line's ⚑ N leaves it out")
        #expect(made.inspectorMadeLintRows == [1])
        #expect(made.lintReasons[1]?.hasSuffix(LiveState.notCountedNote) == true, "\(made.lintReasons)")
        #expect(try !LogFilter.parse("is:lint").matches(row, pending: []), "is:lint lists what ⚑ N counts")
        #expect(try LogFilter.parse("is:manual").matches(row, pending: []), "is:manual still finds it")
        let report = Doctor().examine(made, hostNow: Self.t0 + 1_000)
        let large = try #require(report.check(.largePayloads))
        #expect(large.status == .ok, "\(large.summary)")
        #expect(large.summary.contains("Not counted: 1 message made by an inspector"), "\(large.summary)")
        #expect(report.warnings == 0 && report.failures == 0, "\(report.checks.filter { $0.status != .ok }.map(\.id))")

        // The same message from the app itself is the app's problem.
        let fromApp = Self.state(DiagnosisFixture.state(messages: [request, Self.bigCompletion(seq: 2, origin: .host)], slots: [DiagnosisFixture.slot(.document)]))
        #expect(fromApp.lintCount == 1)
        #expect(try LogFilter.parse("is:lint").matches(try #require(fromApp.log.last), pending: []))
        #expect(Doctor().examine(fromApp, hostNow: Self.t0 + 1_000).check(.largePayloads)?.status == .warning)
    }

    @Test("an injected request for a slot without a handler, left pending, is noted but fails no check")
    func injectedRequestIsNotCounted() throws {
        let injected = TrafficFixture.traffic(
            seq: 1, .received, TrafficFixture.message("inspector-1", .request, "camera.selfie.capture", at: Self.t0), at: Self.t0, origin: .inspector)
        let state = Self.state(
            DiagnosisFixture.state(
                messages: [injected], pending: [DiagnosisFixture.pending("inspector-1", "camera.selfie.capture", since: Self.t0)],
                slots: [DiagnosisFixture.slot(.selfie, handler: false)]))
        #expect(state.log.first?.lint == .slotNoHandler)
        #expect(state.lintCount == 0)
        let report = Doctor().examine(state, hostNow: Self.t0 + 1_000)
        #expect(report.check(.slotUnsupported)?.status == .ok)
        #expect(report.check(.slotUnsupported)?.summary.contains("Not counted: 1 message made by an inspector") == true)
        #expect(report.check(.pendingRequests)?.status == .ok, "\(report.check(.pendingRequests)?.summary ?? "")")
        #expect(report.check(.pendingRequests)?.summary.contains("Not counted") == true)
    }

    @Test("an injected request whose action is a near miss, left pending: marked, not counted")
    func injectedNearMissIsNotCounted() {
        let injected = TrafficFixture.traffic(
            seq: 1, .received, TrafficFixture.message("inspector-2", .request, "device.infoo", at: Self.t0), at: Self.t0, origin: .inspector)
        var state = Self.state(
            DiagnosisFixture.state(capabilities: [WireCapability(id: "device.info", version: "1.0", hasHandler: true, shadowedBySlot: false)]),
            events: [.traffic(injected)])
        state.apply(.event(seq: 102, event: .pendingAdded(DiagnosisFixture.pending("inspector-2", "device.infoo", since: Self.t0))), at: Self.t0)
        #expect(state.log.last?.lint == .unhandledNearMiss)
        #expect(state.lintCount == 0)
        #expect(state.inspectorMadeLintRows == [state.log.count - 1])
        #expect(Doctor().examine(state, hostNow: Self.t0 + 10).check(.actionMismatch)?.status == .ok)
    }

    @Test("a capability.query answered by an inspector does not teach the linter what the host reports")
    func inspectorAnswerToCapabilityQueryIsNotTheHosts() {
        let messages = [
            TrafficFixture.request(seq: 1, id: "q-1", action: "capability.query", at: Self.t0),
            TrafficFixture.response(seq: 2, id: "q-1", action: "capability.query", at: Self.t0 + 1, data: ["capabilities": .object([:])], origin: .inspector),
            TrafficFixture.request(seq: 3, id: "n-1", action: "nfc.read", at: Self.t0 + 2),
        ]
        let state = Self.state(DiagnosisFixture.state(messages: messages))
        #expect(state.linter.reportedCapabilities == nil)
        #expect(state.log.last?.lint == nil, "the journey's request is not 'not reported' because of the inspector's answer")
    }

    @Test("the slot checks' fixes name the slot they are about: host.selfieCapture for the selfie slot")
    func selfieFixNamesTheSelfieSlot() throws {
        let t0 = Self.t0
        let busySelfie = [
            TrafficFixture.request(seq: 1, id: "s-2", action: "camera.selfie.capture", at: t0 - 100),
            TrafficFixture.response(seq: 2, id: "s-2", action: "camera.selfie.capture", at: t0 - 99, status: .error, error: BridgeErrorCode.busy.payload()),
        ]
        let stuck = DiagnosisFixture.slot(.selfie, active: "s-1", since: t0 - 42_000)
        let busy = try #require(Doctor().examine(Self.state(DiagnosisFixture.state(messages: busySelfie, slots: [DiagnosisFixture.slot(.document), stuck])), hostNow: t0).check(.slotBusy))
        #expect(busy.status == .failure)
        #expect(busy.fix.contains("host.selfieCapture.complete(...)"), "\(busy.fix)")
        #expect(!busy.fix.contains("documentCapture"), "\(busy.fix)")

        let request = TrafficFixture.request(seq: 1, id: "s-3", action: "camera.selfie.capture", at: t0)
        let unsupported = Self.state(
            DiagnosisFixture.state(
                messages: [request], pending: [DiagnosisFixture.pending("s-3", "camera.selfie.capture", since: t0)],
                slots: [DiagnosisFixture.slot(.document), DiagnosisFixture.slot(.selfie, handler: false)]))
        let fix = try #require(Doctor().examine(unsupported, hostNow: t0 + 10).check(.slotUnsupported)).fix
        #expect(fix.contains("host.selfieCapture.isSupported") && !fix.contains("documentCapture"), "\(fix)")

        let undetermined = Self.state(DiagnosisFixture.state(messages: [request], slots: [DiagnosisFixture.slot(.selfie, permission: .notDetermined)]))
        let permission = try #require(Doctor().examine(undetermined, hostNow: t0 + 10).check(.permissionNotDetermined)).fix
        #expect(permission.contains("host.selfieCapture.permissionState = camera.permissionState") && !permission.contains("documentCapture"), "\(permission)")
        // A document problem still names the document slot.
        #expect(DoctorCheckID.slotBusy.fix(forSlots: [.document]).contains("host.documentCapture.complete(...)"))
    }

    @Test("checks in reading order: failures, then warnings, ok and not run, each in the checklist's order")
    func readingOrder() {
        let t0 = Self.t0
        let report = Doctor().examine(
            Self.state(
                DiagnosisFixture.state(
                    pending: [DiagnosisFixture.pending("p-1", "nfc.read", since: t0)], lastError: WireError(seq: 1, time: t0, text: "WebView not attached", cause: nil),
                    journeyAttached: true, counts: WireCounts())),
            hostNow: t0 + 1_000)
        let statuses = report.checksInReadingOrder.map(\.status)
        #expect(statuses == statuses.sorted { DoctorReport.readingOrder.firstIndex(of: $0) ?? 0 < DoctorReport.readingOrder.firstIndex(of: $1) ?? 0 })
        #expect(statuses.first == .failure && statuses.contains(.warning))
        #expect(Set(report.checksInReadingOrder.map(\.id)) == Set(DoctorCheckID.allCases))
        let failures = report.checksInReadingOrder.filter { $0.status == .failure }.map(\.id)
        #expect(failures == DoctorCheckID.allCases.filter { id in report.check(id)?.status == .failure })
    }

    @Test("a request held at a breakpoint for 40 s and answered at once: 50 ms of host latency, the 40 s counted apart")
    func heldTimeIsNotLatency() throws {
        let t0 = Self.t0
        let request = TrafficFixture.request(seq: 1, id: "r-1", action: "device.info", at: t0)
        let held = WireHeld(id: "h1", direction: .received, since: t0 + 10, breakpoint: "b1", message: request.message)
        let released = WireHeldResolution(id: "h1", correlationId: "r-1", direction: .received, outcome: .released, reason: .command, time: t0 + 40_010)
        let answer = TrafficFixture.response(seq: 5, id: "r-1", action: "device.info", at: t0 + 40_050)
        var state = LiveState()
        state.apply(.snapshot(seq: 0, state: DiagnosisFixture.state()), at: t0)
        state.apply(.event(seq: 1, event: .traffic(request)), at: t0)
        state.apply(.event(seq: 2, event: .held(held)), at: t0)
        state.apply(.event(seq: 3, event: .heldResolved(released)), at: t0)
        state.apply(.event(seq: 5, event: .traffic(answer)), at: t0)
        let row = try #require(state.log.last)
        #expect(row.latencyMs == 50)
        #expect(row.heldMs == 40_000)
        let stats = ActionStatistics(log: state.log)
        #expect(stats.total.latency?.max == 50, "\(String(describing: stats.total.latency))")
        #expect(stats.total.held == 1 && stats.total.heldMs == 40_000)
        let summary = StatisticsTable.summary(stats)
        #expect(summary.contains("latency p50 50ms"), "\(summary)")
        #expect(summary.contains("1 held at a breakpoint for 40.0s (not in latency)"), "\(summary)")
        // A held answer (sent direction) is left out the same way.
        let second = TrafficFixture.request(seq: 6, id: "r-2", action: "device.info", at: t0 + 50_000)
        let heldAnswer = WireHeld(id: "h2", direction: .sent, since: t0 + 50_020, breakpoint: "b1", message: TrafficFixture.message("r-2", .response, "device.info", at: t0 + 50_020))
        state.apply(.event(seq: 6, event: .traffic(second)), at: t0)
        state.apply(.event(seq: 7, event: .held(heldAnswer)), at: t0)
        state.apply(.event(seq: 8, event: .heldResolved(WireHeldResolution(id: "h2", correlationId: "r-2", direction: .sent, outcome: .released, reason: .timeLimit, time: t0 + 60_020))), at: t0)
        state.apply(.event(seq: 9, event: .traffic(TrafficFixture.response(seq: 9, id: "r-2", action: "device.info", at: t0 + 60_021))), at: t0)
        #expect(state.log.last?.latencyMs == 21)
        #expect(state.log.last?.heldMs == 10_000)
    }
}
