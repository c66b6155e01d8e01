import AgentTesting
import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
import InspectorProtocol
import TestSupport
import Testing

/// Breakpoints on a host seen through GBGBridge's public API: the page holds what the journey
/// posts (`PageInterceptScript`) and the adapter gives each message its verdict, through the
/// agent's interceptor, with the native path's rules (owners, time limits on the host's clock).
/// The page here records the scripts the adapter runs in it; what the script does with them is
/// PageInterceptScriptNodeTests' and, in real WebKit, WebKitBreakpointTests'.
@MainActor
@Suite("GBGBridge adapter: breakpoints through the page")
struct PageHoldTests {
    final class RecordingPage: JourneyPage {
        var unavailableReason: String? { nil }
        var canHold: Bool { true }
        private(set) var commands: [PageInterceptCommand] = []
        private(set) var posts: [JourneyPost] = []
        func post(asJourney post: JourneyPost) { posts.append(post) }
        func send(_ command: PageInterceptCommand) { commands.append(command) }
        /// The verdicts given so far, as `id verdict`.
        var verdicts: [String] {
            commands.compactMap { if case .decide(_, let id, let verdict, _, _) = $0 { return "\(id) \(verdict.rawValue)" } else { return nil } }
        }
        /// The last verdict's message or response, as text.
        var lastJSON: String? {
            for command in commands.reversed() {
                if case .decide(_, _, _, let json, _) = command { return json.map { String(decoding: $0, as: UTF8.self) } }
            }
            return nil
        }
        var switches: [Bool] { commands.compactMap { if case .setHolding(let on) = $0 { return on } else { return nil } } }
    }

    private static func request(_ id: String, action: String = "device.info") -> String {
        #"{"version":"1.0","correlationId":"\#(id)","type":"request","timestamp":0,"payload":{"action":"\#(action)","data":{}}}"#
    }

    private static func report(page: String, id: Int, json: String, direction: TrafficRecord.Direction = .received) -> OutgoingTapReport {
        .intercept(page: page, id: id, direction: direction, json: json)
    }

    @Test("the handshake offers breakpoints with a page that can hold; a matching request is held, others pass; release, drop and answer give the page its verdict")
    func holdsAndVerdicts() async throws {
        let page = RecordingPage()
        let app = try AppUnderTest(journeyPage: page)
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        #expect(session.hello.host.unsupportedReason(.intercept) == nil)
        guard case .success = try await session.run(.addBreakpoint(.init(filter: "type:request action:device.info"))).result else {
            Issue.record("the breakpoint was refused")
            return
        }
        #expect(page.switches.last == true, "the page is told to hold")

        app.adapter.handle(Self.report(page: "p1", id: 1, json: Self.request("r1")))
        app.adapter.handle(Self.report(page: "p1", id: 2, json: Self.request("e1", action: "nfc.read")))
        app.adapter.handle(Self.report(page: "p1", id: 3, json: #"{"version":"1.0","correlationId":"ev","type":"event","timestamp":0,"payload":{"action":"device.info"}}"#))
        #expect(page.verdicts == ["1 hold", "2 pass", "3 pass"], "only requests are held, as on the native path")
        #expect(app.adapter.heldMessages.map(\.message.correlationId) == ["r1"])
        let held = try #require(app.adapter.heldMessages.first)

        guard case .success = try await session.run(.release(.init(id: held.id))).result else { Issue.record("release failed"); return }
        #expect(page.verdicts.last == "1 release")
        #expect(app.adapter.heldMessages.isEmpty)
        guard case .failure(let again) = try await session.run(.release(.init(id: held.id))).result else { Issue.record("a second release succeeded"); return }
        #expect(again.knownCode == .alreadyResolved)

        app.adapter.handle(Self.report(page: "p1", id: 4, json: Self.request("r2")))
        app.adapter.handle(Self.report(page: "p1", id: 5, json: Self.request("r3")))
        let (second, third) = (app.adapter.heldMessages[0].id, app.adapter.heldMessages[1].id)
        guard case .success = try await session.run(.drop(.init(id: second))).result else { Issue.record("drop failed"); return }
        // An answer's reply waits until the page script reports that the journey got it, as any
        // command that makes the host's side send something.
        let answering = try session.send(.answer(.init(id: third, status: .error, error: .init(code: "BUSY", message: "busy", recoverable: true))))
        #expect(await eventually { app.agent.run(); return page.verdicts.last == "5 answer" })
        let answer = try #require(page.lastJSON)
        #expect(answer.contains(#""correlationId":"r3""#) && answer.contains("BUSY"), "the page gets the response to hand to the journey: \(answer)")
        app.adapter.reportSent(json: #"{"version":"1.0","correlationId":"r3","type":"response","timestamp":0,"payload":{"action":"device.info","status":"error","error":{"code":"BUSY","message":"busy","recoverable":true}}}"#)
        let answered = try await session.reply(to: answering)
        guard case .success = answered.result else { Issue.record("answer failed: \(answered.result)"); return }
        #expect(answered.sent.map(\.correlationId) == ["r3"], "the reply lists the answer the journey got")
        #expect(Array(page.verdicts.suffix(2)) == ["4 drop", "5 answer"])

        // An inspector's own injected request is never held, as on the native path.
        let injecting = try session.send(.inject(.init(message: BridgeMessage(correlationId: "inj-1", type: .request, payload: .init(action: "device.info")))))
        #expect(await eventually { app.agent.run(); return page.posts.count == 1 })
        app.adapter.handle(Self.report(page: "p1", id: 6, json: Self.request("inj-1")))
        #expect(page.verdicts.last == "6 pass")
        app.receive(Self.request("inj-1"))
        guard case .success = try await session.reply(to: injecting).result else { Issue.record("inject failed"); return }

        guard case .success = try await session.run(.removeBreakpoint(.init(id: "b1"))).result else { Issue.record("remove failed"); return }
        #expect(page.switches.last == false, "no breakpoints: the page lets everything go")
    }

    @Test("a hold ends at its time limit on the host's clock, when its inspector goes, and when its page goes")
    func holdsEnd() async throws {
        let page = RecordingPage()
        let app = try AppUnderTest(journeyPage: page)
        defer { app.stop() }
        let session = try await app.subscribedSession()
        guard case .success = try await session.run(.addBreakpoint(.init(filter: "type:request", holdSeconds: 30))).result else {
            Issue.record("the breakpoint was refused")
            return
        }
        let sleepersBefore = app.clock.sleeperCount
        app.adapter.handle(Self.report(page: "p1", id: 1, json: Self.request("t1")))
        #expect(await app.clock.waitForSleepers(count: sleepersBefore + 1))
        app.clock.advance(by: .seconds(31))
        #expect(await eventually { app.adapter.heldMessages.isEmpty }, "released at its time limit")
        #expect(page.verdicts.last == "1 release")

        // A new page: what the old one held went with it.
        app.adapter.handle(Self.report(page: "p1", id: 2, json: Self.request("t2")))
        #expect(app.adapter.heldMessages.count == 1)
        app.adapter.handle(.page(url: "file:///journey/index.html"))
        #expect(app.adapter.heldMessages.isEmpty)
        #expect(page.switches.last == true, "the new page is told there are breakpoints")

        // The inspector that owns the breakpoint goes: what it held goes on.
        app.adapter.handle(Self.report(page: "p2", id: 1, json: Self.request("t3")))
        #expect(app.adapter.heldMessages.count == 1)
        session.close()
        #expect(await eventually { app.agent.run(); return app.adapter.heldMessages.isEmpty }, "released when its owner went")
        #expect(page.verdicts.last == "1 release")
    }

    @Test("without a page that can hold, the handshake says breakpoints are not offered")
    func notOffered() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let session = try await app.session(subscribe: false)
        defer { session.close() }
        #expect(session.hello.host.unsupportedReason(.intercept) != nil)
    }

    @Test("what GBGBridge delivers waits before the journey's receive: held, released edited, dropped; it cannot be answered; an inspector's own answer is never held")
    func sentDirection() async throws {
        let page = RecordingPage()
        let app = try AppUnderTest(journeyPage: page)
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        guard case .success = try await session.run(.addBreakpoint(.init(filter: "dir:out action:device.info"))).result else {
            Issue.record("the breakpoint was refused")
            return
        }
        let response = #"{"version":"1.0","correlationId":"s1","type":"response","timestamp":0,"payload":{"action":"device.info","status":"success","data":{"model":"x"}}}"#
        app.adapter.handle(Self.report(page: "p1", id: 1, json: response, direction: .sent))
        let held = try #require(app.adapter.heldMessages.first)
        #expect(held.direction == .sent)
        #expect(page.verdicts == ["1 hold"])
        guard case .failure(let refused) = try await session.run(.answer(.init(id: held.id, status: .success))).result else {
            Issue.record("a held response was answered")
            return
        }
        #expect(refused.message.contains("only a held request can be answered"))
        var edited = held.message
        edited.payload.data = ["model": "edited"]
        guard case .success = try await session.run(.release(.init(id: held.id, message: edited))).result else { Issue.record("release failed"); return }
        let release = try #require(page.lastJSON)
        #expect(page.verdicts.last == "1 release")
        #expect(release.contains("edited"), "the page gets the edited message: \(release)")

        app.adapter.handle(Self.report(page: "p1", id: 2, json: response.replacingOccurrences(of: "s1", with: "s2"), direction: .sent))
        let second = try #require(app.adapter.heldMessages.first)
        guard case .success = try await session.run(.drop(.init(id: second.id))).result else { Issue.record("drop failed"); return }
        #expect(page.verdicts.last == "2 drop")

        // An event the inspector sent, reported by the page script, is not held after it.
        let ping = try session.send(.sendEvent(.init(name: "device.info")))
        #expect(await eventually { app.agent.run(); return app.journey.deliveries.contains { $0.message.payload.action == "device.info" } })
        let sent = try #require(app.journey.deliveries.last { $0.message.payload.action == "device.info" })
        // The page script (here PageTapTransport) reported it sent already, as the page does first.
        let json = String(decoding: sent.json, as: UTF8.self)
        app.adapter.handle(Self.report(page: "p1", id: 3, json: json, direction: .sent))
        #expect(page.verdicts.last == "3 pass")
        _ = try await session.reply(to: ping)
    }

    @Test("through the page, a message released edited is logged as what went on, marked, with the message before the edit (issue 27)")
    func editedThroughThePage() async throws {
        let page = RecordingPage()
        let app = try AppUnderTest(journeyPage: page)
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        guard case .success = try await session.run(.addBreakpoint(.init(filter: "action:device.info"))).result else {
            Issue.record("the breakpoint was refused")
            return
        }
        // A request waits in the page before GBGBridge gets it; released edited, GBGBridge
        // receives the edited request, and only then is it logged: with the journey's original.
        app.adapter.handle(Self.report(page: "p1", id: 1, json: Self.request("r1")))
        let held = try #require(app.adapter.heldMessages.first)
        var edited = held.message
        edited.payload.data = ["model": "edited"]
        guard case .success = try await session.run(.release(.init(id: held.id, message: edited))).result else { Issue.record("release failed"); return }
        app.receive(try #require(page.lastJSON))
        let logged = try await session.next { frame in
            if case .event(_, .traffic(let record)) = frame { return record.message.correlationId == "r1" && record.direction == .received }
            return false
        }
        guard case .event(_, .traffic(let request)) = logged else { Issue.record("no traffic"); return }
        #expect(request.message.payload.data == ["model": "edited"])
        #expect(request.hold == HoldMark(id: held.id, outcome: .edited))
        #expect(request.original?.payload.data == [:], "what the journey posted")

        // What GBGBridge sends is logged first, then held in the page before the journey's
        // receive: released edited, the logged record is marked, and says what the journey got.
        let response = #"{"version":"1.0","correlationId":"s1","type":"response","timestamp":0,"payload":{"action":"device.info","status":"success","data":{"model":"x"}}}"#
        app.adapter.reportSent(json: response)
        app.adapter.handle(Self.report(page: "p1", id: 2, json: response, direction: .sent))
        let heldResponse = try #require(app.adapter.heldMessages.first)
        var editedResponse = heldResponse.message
        editedResponse.payload.data = ["model": "edited"]
        guard case .success = try await session.run(.release(.init(id: heldResponse.id, message: editedResponse))).result else {
            Issue.record("release failed")
            return
        }
        let resolved = try await session.next { frame in
            if case .event(_, .heldResolved(let resolution)) = frame { return resolution.id == heldResponse.id }
            return false
        }
        guard case .event(_, .heldResolved(let resolution)) = resolved else { Issue.record("no resolution"); return }
        #expect(resolution.record != nil, "it names the record logged when GBGBridge sent it")
        let late = try await app.session(subscribe: true)
        defer { late.close() }
        guard case .snapshot(_, let state) = try await late.next(where: { if case .snapshot = $0 { true } else { false } }) else { return }
        let record = try #require(state.messages.first { $0.message.correlationId == "s1" })
        #expect(record.seq == resolution.record)
        #expect(record.hold == HoldMark(id: heldResponse.id, outcome: .edited))
        #expect(record.delivered?.payload.data == ["model": "edited"])
        #expect(record.message.payload.data == ["model": "x"], "as GBGBridge sent it")
    }
}
