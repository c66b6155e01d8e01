import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// Issue 28, part 3: a session's log read as what happened: requests with their answers,
/// pending requests, events either way, malformed input; inspector-made traffic left out.
@Suite("Session transcript")
struct SessionTranscriptTests {
    static let t0: Double = 1_700_000_000_000

    /// A session's state: `run` shifts every time by an hour and changes every id; with
    /// `inspectorMade`, a person answered the capture and sent a host.ping from the inspector.
    static func wire(run: Int = 0, inspectorMade: Bool = true) -> WireState {
        let t = t0 + Double(run) * 3_600_000
        var messages = [
            Fixture.hostEvent(seq: 1, id: "ios-event-\(run)", name: "host.ready", at: t, data: ["version": .string("1.0.0")]),
            Fixture.request(seq: 2, id: "dev-\(run)", action: "device.info", at: t + 10),
            Fixture.response(seq: 3, id: "dev-\(run)", action: "device.info", at: t + 52, data: ["model": .string("iPhone")]),
            Fixture.request(seq: 4, id: "nfc-\(run)", action: "nfc.read", at: t + 100),
            Fixture.request(seq: 5, id: "cap-\(run)", action: "camera.document.capture", at: t + 110),
        ]
        if inspectorMade {
            messages += [
                Fixture.response(seq: 6, id: "cap-\(run)", action: "camera.document.capture", at: t + 150, origin: .inspector),
                Fixture.hostEvent(seq: 7, id: "ios-event-\(run)-b", name: "host.ping", at: t + 200, origin: .inspector),
            ]
        }
        messages += [
            Fixture.traffic(seq: 8, .received, Fixture.message("web-event-\(run)", .event, "journey.step", at: t + 300, data: ["step": .string("done")]), at: t + 300),
            Fixture.response(seq: 9, id: "gone-\(run)", action: "old.action", at: t + 400, status: .error,
                             error: BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: true)),
        ]
        let malformed = [WireMalformed(seq: 10, time: t + 500, raw: "{oops", bytes: 5, reason: "not JSON")]
        let host = WireHostInfo(name: "demo", pid: 4242 + run, hostVersion: "1.0", environment: "ios", startedAt: t - 1000)
        return WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: messages, malformed: malformed, pending: [],
            slots: [], customCapabilities: [], counts: WireCounts(received: 4, sent: 5, malformed: 1))
    }

    static func state() -> LiveState {
        var state = LiveState()
        state.apply(.snapshot(seq: 10, state: wire()), at: t0 + 1000)
        return state
    }

    @Test("Requests carry their answers (status, data, latency), pending requests none; events, orphan answers and malformed input are items")
    func items() throws {
        let state = Self.state()
        let transcript = SessionTranscript(log: state.log, host: state.host, name: "host demo")
        #expect(transcript.items.map(\.kind) == [.event, .request, .request, .request, .event, .answer, .malformed])
        #expect(transcript.items.map(\.action) == ["host.ready", "device.info", "nfc.read", "camera.document.capture", "journey.step", "old.action", "not JSON"])
        let device = transcript.items[1]
        let answer = try #require(device.answer)
        #expect(answer.status == .success)
        #expect(answer.data == .object(["model": .string("iPhone")]))
        #expect(answer.latencyMs == 42)
        #expect(answer.seq == 3)
        #expect(transcript.items[2].isPending)
        // The capture was answered only by the inspector: left out, so it is pending here.
        #expect(transcript.items[3].isPending)
        #expect(transcript.items[4].direction == .received)
        #expect(transcript.items[0].direction == .sent)
        #expect(transcript.items[5].answer?.error?.code == "BUSY")
        #expect(transcript.inspectorMadeLeftOut == 2)
        #expect(transcript.hostName == "demo")
        #expect(transcript.messageCount == 8)
        #expect(transcript.timeSpan == Self.t0...(Self.t0 + 500))
    }

    @Test("The host's answer to a request an inspector injected is left out with the request")
    func injectedRequest() {
        let injected = Fixture.traffic(seq: 1, .received, Fixture.message("inj-1", .request, "device.info", at: Self.t0), at: Self.t0, origin: .inspector)
        let answer = Fixture.response(seq: 2, id: "inj-1", action: "device.info", at: Self.t0 + 5)
        let wire = WireState(
            host: WireHostInfo(name: "demo", pid: 1, hostVersion: "1.0", environment: "ios", startedAt: Self.t0), journeyAttached: true, lastError: nil, errorHistory: [], messages: [injected, answer], malformed: [], pending: [],
            slots: [], customCapabilities: [], counts: WireCounts(received: 1, sent: 1, malformed: 0))
        var state = LiveState()
        state.apply(.snapshot(seq: 2, state: wire), at: Self.t0 + 10)
        let transcript = SessionTranscript(log: state.log, name: "a")
        #expect(transcript.items.isEmpty, "\(transcript.items)")
        #expect(transcript.inspectorMadeLeftOut == 2)
        let included = SessionTranscript(log: state.log, name: "a", includeInspectorMade: true)
        #expect(included.items.map(\.kind) == [.request])
        #expect(included.items.first?.answer?.seq == 2)
    }

    @Test("With inspector-made traffic included, the person's answer and event are items")
    func includeInspectorMade() {
        let state = Self.state()
        let transcript = SessionTranscript(log: state.log, host: state.host, name: "host demo", includeInspectorMade: true)
        #expect(transcript.inspectorMadeLeftOut == 0)
        #expect(transcript.includesInspectorMade)
        #expect(transcript.items[3].answer?.origin == .inspector)
        #expect(transcript.items.contains { $0.action == "host.ping" })
    }

    @Test("Two logs of the same session with other ids and times compare equal; a recording's frames read the same as its log")
    func fromRecording() {
        let state = Self.state()
        let left = SessionTranscript(log: state.log, host: state.host, name: "a")
        // The same journey an hour later, every id different, as a recording holds it.
        let contents = Recording.Contents(header: nil, frames: [.snapshot(seq: 10, state: Self.wire(run: 1, inspectorMade: false))], problem: nil, linesRead: 1)
        let right = SessionTranscript(contents: contents, name: "b.jsonl")
        #expect(right.inspectorMadeLeftOut == 0)
        #expect(right.hostName == "demo")
        #expect(right.items.map(\.alignmentKey) == left.items.map(\.alignmentKey))
        #expect(SessionDiff(left: left, right: right).isSame)
    }
}
