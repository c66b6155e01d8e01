import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorProtocol
import Testing
import ThreadSupport

/// A native host hands the agent its traffic in pieces and says itself when a pending or held
/// message is the one it reported last (`BridgeHost.addPackageObserver(_:)`, ``LoggedJSON``),
/// instead of the agent's inbox building records and comparing whole messages
/// (``TrafficMemory``). Driven by a real host through ordinary, hostile and unusual flows, the
/// agent must make the very frames and keep the very state that the whole changes give.
@MainActor
@Suite("A native host's changes handed over in pieces")
struct NativeHandOffTests {
    /// Holds what `decide` picks, at breakpoint b1.
    final class Interceptor: BridgeInterceptor {
        var decide: (BridgeMessage, TrafficRecord.Direction) -> Bool = { _, _ in false }
        func hold(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> HoldRequest? {
            decide(message, direction) ? HoldRequest(breakpoint: "b1", timeLimit: 3600) : nil
        }
    }

    /// Faults what `decide` picks.
    final class Injector: BridgeFaultInjector {
        var decide: (BridgeMessage, TrafficRecord.Direction) -> FaultAction? = { _, _ in nil }
        func fault(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> FaultVerdict? {
            decide(message, direction).map { FaultVerdict(rule: "r1", action: $0) }
        }
    }

    /// Receives another message from inside `didReceive` of a request with action `reenter`.
    final class ReenteringDelegate: BridgeHostDelegate {
        func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) {
            guard message.payload.action == "reenter" else { return }
            host.receive(text: #"{"version":"1.0","correlationId":"inner","type":"event","timestamp":1,"payload":{"action":"inner","data":{}}}"#)
        }
    }

    static func request(_ id: String, action: String, data: String = "{}", spaced: Bool = false) -> String {
        let gap = spaced ? " " : ""
        return #"{"version":"1.0",\#(gap)"correlationId":"\#(id)","type":"request","timestamp":1,"payload":{"action":"\#(action)","data":\#(data)}}"#
    }

    /// What the inbox handed the agent, applied to a fresh state: the frames, the final
    /// snapshot, and how many changes the host's word settled and how many the JSON did.
    struct Applied {
        var frames: [[UInt8]] = []
        var snapshot: [UInt8] = []
        var saidByHost = 0
        var comparedOnAgent = 0
    }

    static func drain(_ inbox: AgentInbox) -> Applied {
        var state = CompactTrafficTests.freshState()
        var applied = Applied()
        inbox.drain { batch in
            batch.forEach { record in
                applied.frames.append(state.apply(record))
            } other: { item in
                switch item {
                case .change(let change, let tag, let links):
                    if links.isLastReceived || links.isLastLogged { applied.saidByHost += 1 }
                    if links.lastLoggedJSON != nil { applied.comparedOnAgent += 1 }
                    applied.frames.append(state.apply(change, tag: tag, links: links).frame)
                default:
                    Issue.record("unexpected item")
                }
            }
        }
        applied.snapshot = state.snapshotFrame()
        return applied
    }

    @Test("The frames and the state are those of the whole changes, compared message by message")
    func sameAsWholeChanges() throws {
        let host = BridgeHost(hostVersion: "1.0")
        let transport = RecordingJourneyTransport()
        host.attach(transport)
        let interceptor = Interceptor()
        let injector = Injector()
        let delegate = ReenteringDelegate()
        host.delegate = delegate
        host.setInterceptor(interceptor)
        host.setFaultInjector(injector)
        let whole = Locked<[BridgeChange]>([])
        host.addObserver { change in whole.withLock { $0.append(change) } }
        let inbox = try AgentInbox()
        // The bytes the host lends are those of the JSON it reports, and only for what it received.
        let lentBytes = Locked((lent: 0, sameAsJSON: 0, sent: 0))
        host.addPackageObserver(PackageObserver(
            change: { change, isLastLogged in inbox.pushCausedByRunning(change, isLastLogged: isLastLogged) },
            traffic: { direction, message, json, lent, time, marks in
                if let lent {
                    let same = Data(lent) == json
                    lentBytes.withLock { tally in
                        tally.lent += 1
                        if same { tally.sameAsJSON += 1 }
                        if direction == .sent { tally.sent += 1 }
                    }
                }
                inbox.pushTraffic(direction, message, json: json, lent: lent, time: time, marks: marks)
            }))

        host.registerCustomCapability("device.info") { request, responder in
            responder.respond(status: .success, data: request.payload.data)
        }
        host.registerCustomCapability("pass.on") { _, responder in responder.passToPending() }
        let hostile = [
            #"{"text":"quote \" backslash \\ tab \t nul \u0000 del \u007f"}"#, #"{"text":"é 日本語 🙂 \u2028 \u2029"}"#,
            #"{"n":[1,2.5,-3,1e20,0.1,-0,5e-324,123456789012345678,null,true]}"#, #"{"deep":{"a":[{"b":{}}]}}"#,
        ]
        // Ordinary and hostile requests answered at once: plain traffic each way.
        for (index, data) in hostile.enumerated() { host.receive(text: Self.request("r\(index)", action: "device.info", data: data)) }
        // A request that goes pending as it arrives (the host says so), spaced so its bytes differ
        // from its encoding; one a handler passes on (the agent compares); one whose delegate
        // receives another message first (the agent compares, and it is not the last).
        host.receive(text: Self.request("p1", action: "custom.thing", data: hostile[0], spaced: true))
        host.receive(text: Self.request("p2", action: "pass.on", data: hostile[2], spaced: true))
        host.receive(text: Self.request("p3", action: "reenter", spaced: true))
        // Held as it arrives (the host says so), then released as it was and edited: the first
        // goes pending again, now compared on the agent's thread.
        interceptor.decide = { message, direction in direction == .received && message.payload.action.hasPrefix("hold.") }
        host.receive(text: Self.request("h1", action: "hold.me", data: hostile[1], spaced: true))
        host.receive(text: Self.request("h2", action: "hold.me", spaced: true))
        let held = host.heldMessages
        try #require(held.count == 2)
        try host.releaseHeld(held[0].id)
        var edited = held[1].message
        edited.payload.data = ["edited": .bool(true)]
        try host.releaseHeld(held[1].id, as: edited)
        // A duplicated event whose second copy is held: equal to the one logged last, which the
        // agent finds by reading its JSON back; and a hostile event held before it was logged.
        var copies = 0
        interceptor.decide = { message, direction in
            guard direction == .sent, message.payload.action.hasPrefix("dup.") else { return false }
            copies += 1
            return copies == 2
        }
        injector.decide = { message, direction in direction == .sent && message.payload.action.hasPrefix("dup.") ? .duplicate : nil }
        host.send(event: "dup.event", data: ["n": .number(0.1), "text": .string("\u{2028}🙂\"")])
        interceptor.decide = { message, direction in direction == .sent && message.payload.action == "held.event" }
        injector.decide = { _, _ in nil }
        host.send(event: "held.event", data: ["x": .number(1e20)])
        for message in host.heldMessages { try host.releaseHeld(message.id, as: message.message) }
        // Faulted requests: dropped, and answered with an error.
        interceptor.decide = { _, _ in false }
        injector.decide = { message, direction in
            guard direction == .received else { return nil }
            return message.payload.action == "drop.me" ? .drop : .error(BridgeErrorPayload(code: "X", message: "m", recoverable: false))
        }
        host.receive(text: Self.request("f1", action: "drop.me"))
        host.receive(text: Self.request("f2", action: "err.me"))
        injector.decide = { _, _ in nil }
        // A duplicate id, a malformed input, an answer to a pending request, and many ordinary ones.
        host.receive(text: Self.request("p1", action: "custom.thing"))
        host.receive(text: "{not json")
        try host.respondToPendingRequest("p1", status: .success)
        for index in 0..<50 { host.receive(text: Self.request("m\(index)", action: index % 3 == 0 ? "custom.other" : "device.info")) }

        let applied = Self.drain(inbox)
        let reference = CompactTrafficTests.wholePath(whole.withLock { $0 })
        #expect(applied.frames.count == reference.frames.count)
        for (index, (left, right)) in zip(applied.frames, reference.frames).enumerated() where left != right {
            Issue.record("frame \(index) differs: \(String(decoding: left.prefix(400), as: UTF8.self)) vs \(String(decoding: right.prefix(400), as: UTF8.self))")
        }
        #expect(applied.snapshot == reference.snapshot)
        // Both ways of knowing were used, and the cases that matter happened.
        let tally = lentBytes.current
        #expect(tally.lent >= 10)
        #expect(tally.sameAsJSON == tally.lent)
        #expect(tally.sent == 0)
        #expect(applied.saidByHost >= 3)
        #expect(applied.comparedOnAgent >= 4)
        let frames = reference.frames.map { String(decoding: $0, as: UTF8.self) }
        #expect(frames.contains { $0.contains(#""type":"held""#) && $0.contains("dup.event") })
        #expect(frames.contains { $0.contains(#""type":"pendingAdded""#) && $0.contains(#""correlationId":"p2""#) })
        #expect(frames.contains { $0.contains(#""type":"pendingAdded""#) && $0.contains(#""correlationId":"h1""#) })
    }

    @Test("The host's word and the JSON read back each decide the links")
    func linksFromHostOrJSON() throws {
        let json = Data(Self.request("a", action: "x").utf8)
        let message = try BridgeMessageCodec().decode(json).get()
        var logged = LoggedJSON()
        let pending = BridgeChange.pendingAdded(PendingRequest(message: message, since: Date()))
        #expect(logged.links(of: pending, isLastLogged: true) == AgentInbox.Links(isLastReceived: true))
        #expect(logged.links(of: pending, isLastLogged: false) == AgentInbox.Links())
        logged.note(.received, json)
        let compared = logged.links(of: pending, isLastLogged: false)
        #expect(compared.lastLoggedJSON == json)
        #expect(compared.logged(is: message))
        var other = message
        other.timestamp = 2
        #expect(!compared.logged(is: other))
        #expect(!AgentInbox.Links(lastLoggedJSON: Data("{bad".utf8)).logged(is: message))
        let held = BridgeChange.held(HeldMessage(id: "h1", direction: .sent, message: message, json: json, since: Date(), breakpoint: "b", timeLimit: 1))
        #expect(logged.links(of: held, isLastLogged: false).lastLoggedJSON == nil)
        logged.removeAll()
        #expect(logged.links(of: pending, isLastLogged: false).lastLoggedJSON == nil)
    }
}
