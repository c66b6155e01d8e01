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

    static func state() -> LiveState {
        let messages = [
            Fixture.hostEvent(seq: 1, id: "ios-event-1", name: "host.ready", at: t0, data: ["version": .string("1.0.0")]),
            Fixture.request(seq: 2, id: "dev-1", action: "device.info", at: t0 + 10),
            Fixture.response(seq: 3, id: "dev-1", action: "device.info", at: t0 + 52, data: ["model": .string("iPhone")]),
            Fixture.request(seq: 4, id: "nfc-1", action: "nfc.read", at: t0 + 100),
            Fixture.request(seq: 5, id: "cap-1", action: "camera.document.capture", at: t0 + 110),
            // Answered by a person in the inspector: not the app's behaviour.
            Fixture.response(seq: 6, id: "cap-1", action: "camera.document.capture", at: t0 + 150, origin: .inspector),
            Fixture.hostEvent(seq: 7, id: "ios-event-2", name: "host.ping", at: t0 + 200, origin: .inspector),
            Fixture.traffic(seq: 8, .received, Fixture.message("web-event-1", .event, "journey.step", at: t0 + 300, data: ["step": .string("done")]), at: t0 + 300),
            Fixture.response(seq: 9, id: "gone-1", action: "old.action", at: t0 + 400, status: .error,
                             error: BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: true)),
        ]
        let malformed = [WireMalformed(seq: 10, time: t0 + 500, raw: "{oops", bytes: 5, reason: "not JSON")]
        let host = WireHostInfo(name: "demo", pid: 4242, hostVersion: "1.0", environment: "ios", startedAt: t0 - 1000)
        let wire = WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: messages, malformed: malformed, pending: [],
            slots: [], customCapabilities: [], counts: WireCounts(received: 4, sent: 5, malformed: 1))
        var state = LiveState()
        state.apply(.snapshot(seq: 10, state: wire), at: t0 + 1000)
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
        let contents = Recording.Contents(header: nil, frames: [.snapshot(seq: 10, state: Self.wire())], problem: nil, linesRead: 2)
        let right = SessionTranscript(contents: contents, name: "b.jsonl")
        #expect(right.items.map(\.alignmentKey) == left.items.map(\.alignmentKey))
        #expect(SessionDiff(left: left, right: right).isSame)
    }

    static func wire() -> WireState {
        // The same journey an hour later, every id different.
        let later = t0 + 3_600_000
        let messages = [
            Fixture.hostEvent(seq: 1, id: "ios-event-9", name: "host.ready", at: later, data: ["version": .string("1.0.0")]),
            Fixture.request(seq: 2, id: "dev-9", action: "device.info", at: later + 10),
            Fixture.response(seq: 3, id: "dev-9", action: "device.info", at: later + 40, data: ["model": .string("iPhone")]),
            Fixture.request(seq: 4, id: "nfc-9", action: "nfc.read", at: later + 100),
            Fixture.request(seq: 5, id: "cap-9", action: "camera.document.capture", at: later + 110),
            Fixture.traffic(seq: 6, .received, Fixture.message("web-event-9", .event, "journey.step", at: later + 300, data: ["step": .string("done")]), at: later + 300),
            Fixture.response(seq: 7, id: "gone-9", action: "old.action", at: later + 400, status: .error,
                             error: BridgeErrorPayload(code: "BUSY", message: "busy", recoverable: true)),
        ]
        let malformed = [WireMalformed(seq: 8, time: later + 500, raw: "{oops", bytes: 5, reason: "not JSON")]
        let host = WireHostInfo(name: "demo", pid: 4343, hostVersion: "1.0", environment: "ios", startedAt: later - 1000)
        return WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: messages, malformed: malformed, pending: [],
            slots: [], customCapabilities: [], counts: WireCounts(received: 4, sent: 3, malformed: 1))
    }
}
