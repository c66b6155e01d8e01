import AgentTesting
import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// The GBGBridge adapter, served by the agent's core (in memory, `EmbeddedAgent`) and read as the
/// real client reads frames, with this project's host seen only through the mirror of GBGBridge's
/// public API (issue 12, point 2); one test serves it over a real socket as an app starts it. The
/// app's own delegate is the one from the seed example ("MessageLogger": it logs every message and
/// answers unhandled requests with `.unsupported`).
@MainActor
@Suite("GBGBridge adapter: an app seen through the public API")
struct PublicAPIHostTests {
    @Test("the handshake says public-api and what the public API cannot do; clearError and clearLog are refused with the reason")
    func handshakeAndUnsupported() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let session = try await app.session(subscribe: false)
        defer { session.close() }
        let host = session.hello.host
        #expect(host.inspectionPath == HostFeature.publicAPIPath)
        #expect(host.name == "app")
        #expect(host.unsupportedReason(.clearError)?.contains("clearError") == true)
        #expect(host.unsupportedReason(.respond) == nil)
        // Fault rules need BridgeCore's own send path (docs/inspector-protocol.md 14.5).
        #expect(host.unsupportedReason(.faults)?.contains("fault rules need a host built on BridgeCore") == true)
        for command in [InspectorCommand.clearError, .clearLog, .addFault(WireFaultRule(filter: "action:x", effect: .drop))] {
            let reply = try await session.run(command)
            guard case .failure(let error) = reply.result else {
                Issue.record("\(command) was not refused")
                continue
            }
            #expect(error.knownCode == .unsupported)
            #expect(error.message == host.unsupportedReason(command.feature ?? .clearError))
        }
    }

    @Test("GBGBridgeInspector.start serves the adapter on a real socket, as an app starts it; stop gives the delegate back")
    func startedOverASocket() async throws {
        let host = BridgeHost(hostVersion: "2.0.0")
        let logger = MessageLogger(host: host, answerUnhandled: true)
        host.delegate = logger
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let inspector = try GBGBridgeInspector.start(api: host, hostVersion: "2.0.0", name: "app", socketPath: directory + "/a.sock")
        let path = inspector.agent.socketPath
        // A real session, on a thread of its own; the hello's bound is generous for a busy machine.
        let hello = try await onThread {
            let session = try InspectorSession(socketPath: path, subscribe: false, clientName: "gbg-tests", timeout: 120)
            defer { session.close() }
            return (path: session.hello.host.inspectionPath, name: session.hello.host.name)
        }
        #expect(hello.path == HostFeature.publicAPIPath)
        #expect(hello.name == "app")
        #expect(host.delegate !== logger, "the adapter's proxy is in the delegate slot")
        inspector.stop()
        #expect(host.delegate === logger)
    }

    @Test("the app's delegate still gets every call, and its .unsupported answers still go out (Common Patterns: MessageLogger)")
    func delegateIsChained() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        app.receive(request("device.info", id: "r1"))
        app.receive(event("journey.step", id: "e1"))
        #expect(app.logger.received == ["r1", "e1"])
        #expect(app.logger.unhandled == ["r1"])
        // The app answered r1 with unsupported from its delegate; the page script saw it go out.
        #expect(app.journey.messages.map(\.correlationId) == ["r1"])
        #expect(app.journey.messages.first?.payload.status == .unsupported)
        #expect(app.adapter.sentReports == 1)
        #expect(app.host.pendingRequests.isEmpty)
    }

    @Test("traffic both ways, pending requests and lastError reach a subscribed inspector in order; the sent JSON is byte-equal to the delivery")
    func changesReachTheInspector() async throws {
        let app = try AppUnderTest(answerUnhandled: false)
        defer { app.stop() }
        let session = try await app.session(subscribe: true)
        defer { session.close() }
        let first = try await session.next { if case .snapshot = $0 { return true } else { return false } }
        guard case .snapshot(_, let state) = first else { return }
        #expect(state.pending.isEmpty)

        app.receive(request("nfc.read", id: "p1"))
        app.receive("{not json")
        let events = try await session.events(until: { events in
            events.contains { if case .lastError(let error) = $0 { return error.text != nil } else { return false } }
        })
        #expect(events.contains { if case .traffic(let record) = $0 { record.message.correlationId == "p1" && record.direction == .received } else { false } })
        #expect(events.contains { if case .pendingAdded(let pending) = $0 { pending.correlationId == "p1" } else { false } })

        let reply = try await session.run(.respond(.init(correlationId: "p1", status: .success, data: ["tag": .string("ok")])))
        #expect((try? reply.result.get()) != nil)
        let delivered = try #require(app.journey.deliveries.last)
        let after = try await session.events(until: { events in
            events.contains { if case .traffic(let record) = $0 { record.direction == .sent } else { false } }
                && events.contains { if case .pendingRemoved("p1") = $0 { true } else { false } }
        })
        let sent = after.compactMap { event -> WireTraffic? in
            if case .traffic(let record) = event, record.direction == .sent { return record } else { return nil }
        }
        #expect(sent.count == 1)
        #expect(sent.first?.origin == .inspector, "the response is marked as the inspector's")
        // The record is the delivery itself: the same message, the same byte count.
        #expect(sent.first?.bytes == delivered.json.count)
        #expect(sent.first.flatMap { try? BridgeMessageCodec().encode($0.message) } == delivered.json)
        #expect(reply.sent.first?.correlationId == "p1")
        #expect(app.journey.deliveries.count == 1)
        #expect(String(decoding: delivered.json, as: UTF8.self).contains(#""tag":"ok""#))

        // Refusals say why, as on the native path: answered already, never seen, held by a slot
        // (the app answering a pending request with no page attached counts as answered too).
        let again = try await session.run(.respond(.init(correlationId: "p1", status: .success)))
        if case .failure(let error) = again.result { #expect(error.knownCode == .alreadyAnswered) } else { Issue.record("answered twice") }
        let unknown = try await session.run(.respond(.init(correlationId: "nobody", status: .success)))
        if case .failure(let error) = unknown.result { #expect(error.knownCode == .notPending) } else { Issue.record("answered an unknown id") }
        app.holdUntilCompleted(\.documentCapture)
        app.receive(request("camera.document.capture", id: "held"))
        let held = try await session.run(.respond(.init(correlationId: "held", status: .success)))
        if case .failure(let error) = held.result { #expect(error.knownCode == .handledElsewhere) } else { Issue.record("answered a slot's request") }
        app.receive(request("nfc.read", id: "quiet"))
        app.journey.failure = TestFailure()
        app.host.respond(to: "quiet", status: .success)
        app.adapter.refresh()
        let quiet = try await session.run(.respond(.init(correlationId: "quiet", status: .success)))
        if case .failure(let error) = quiet.result { #expect(error.knownCode == .alreadyAnswered) } else { Issue.record("answered twice") }
    }

    @Test("the page reports later, as WebKit does: replies still carry what the command sent, marked as the inspector's")
    func asynchronousPageReports() async throws {
        let app = try AppUnderTest(answerUnhandled: false, reportLater: true)
        defer { app.stop() }
        app.receive(request("nfc.read", id: "n1"))
        let session = try await app.session(subscribe: true)
        defer { session.close() }
        let respond = try await session.run(.respond(.init(correlationId: "n1", status: .success)))
        #expect(respond.sent.map(\.correlationId) == ["n1"])
        let event = try await session.run(.sendEvent(.init(name: "host.ping")))
        #expect(event.sent.map(\.payload.action) == ["host.ping"])
        let events = try await session.events(until: { events in
            events.filter { if case .traffic(let record) = $0 { record.direction == .sent } else { false } }.count == 2
        })
        let origins = events.compactMap { event -> MessageOrigin? in
            if case .traffic(let record) = event, record.direction == .sent { return record.origin } else { return nil }
        }
        #expect(origins == [.inspector, .inspector])
    }

    @Test("a command whose message the page never reports is answered when settleTimeout passes on the adapter's clock, not before")
    func settleTimeoutOnTheClock() async throws {
        let app = try AppUnderTest(pageScript: false)
        defer { app.stop() }
        let session = try await app.session(subscribe: false)
        defer { session.close() }
        let id = try session.send(.sendEvent(.init(name: "host.ping")))
        // The poll loop and the reply's settling timer sleep on the clock.
        #expect(await app.clock.waitForSleepers(count: 2))
        #expect(app.journey.messages.map(\.payload.action) == ["host.ping"], "GBGBridge sent it; the page said nothing")
        app.clock.advance(by: app.adapter.settleTimeout - .milliseconds(1))
        #expect(app.clock.nextDeadline == ManualClock.Instant(offset: app.adapter.settleTimeout), "the settling timer still sleeps")
        for _ in 0..<20 { await Task.yield() }
        #expect(try session.replyNow(to: id) == nil, "still waiting for the page's report")
        app.clock.advance(by: .milliseconds(1))
        let reply = try await session.reply(to: id)
        #expect((try? reply.result.get()) != nil)
        #expect(reply.sent.isEmpty, "nothing reported, so nothing the command sent is known")
    }

    @Test("slots: taken and freed as the app works, a change nothing reports found by polling; the inspector cancels and enables them (Troubleshooting: Typed Slot Returns BUSY Error)")
    func slots() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let host = app.host
        app.holdUntilCompleted(\.documentCapture)
        let session = try await app.subscribedSession()
        defer { session.close() }
        app.receive(request("camera.document.capture", id: "c1"))
        // The inspector sees the slot taken right after GBGBridge routes the request.
        _ = try await session.events(until: { events in
            events.contains { if case .slot(let slot) = $0 { slot.kind == .document && slot.activeRequest == "c1" } else { false } }
        })

        // The app's camera UI completes the slot itself: no delegate call, no command. The page
        // reports the response, and the slot is seen idle.
        host.documentCapture.complete(.cancelled(reason: "Dismissed"))
        _ = try await session.events(until: { events in
            events.contains { if case .slot(let slot) = $0 { slot.kind == .document && slot.activeRequest == nil } else { false } }
        })

        // A change nothing reports (the app disables a slot) is found by polling, when the poll
        // interval (100 ms) passes on the adapter's clock.
        host.selfieCapture.permissionState = .denied
        #expect(await app.clock.waitForSleepers(count: 1), "the poll loop sleeps on the clock")
        app.clock.advance(by: app.adapter.pollInterval)
        _ = try await session.events(until: { events in
            events.contains { if case .slot(let slot) = $0 { slot.kind == .selfie && slot.permissionState == .denied } else { false } }
        })

        app.receive(request("camera.document.capture", id: "c2"))
        #expect(await eventually { host.documentCapture.activeRequest?.correlationId == "c2" })
        let reply = try await session.run(.cancelSlot(.init(slot: .document, reason: "from the test")))
        #expect((try? reply.result.get())?["correlationId"] == .string("c2"))
        #expect(await eventually { app.journey.messages.contains { $0.correlationId == "c2" && $0.payload.status == .cancelled } })
        let idle = try await session.run(.cancelSlot(.init(slot: .document, reason: nil)))
        if case .failure(let error) = idle.result { #expect(error.knownCode == .slotIdle) } else { Issue.record("an idle slot was cancelled") }

        let enable = try await session.run(.setSlotEnabled(.init(slot: .selfie, enabled: false)))
        #expect((try? enable.result.get()) != nil)
        #expect(host.selfieCapture.isEnabled == false)
    }

    @Test("an app that sets its own delegate after the adapter started is chained again; stop gives the delegate back")
    func delegateReplacedAndRestored() async throws {
        let app = try AppUnderTest()
        let later = MessageLogger(host: app.host, answerUnhandled: false)
        app.host.delegate = later
        app.adapter.refresh()
        #expect(app.host.delegate !== later, "the adapter's proxy is back in the delegate slot")
        app.receive(event("journey.step", id: "e9"))
        #expect(later.received == ["e9"])
        app.stop()
        #expect(app.host.delegate === later)
    }

    @Test("page reports that are not bridge messages are counted and shown, never dropped; a post that is not a report too")
    func hostileReports() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let adapter = app.adapter
        for text in ["", "null", "[]", "{", #"{"kind":"x"}"#, String(repeating: "[", count: 100_000), "\u{0}"] {
            adapter.reportSent(json: text)
        }
        #expect(adapter.unreadReports == 7)
        #expect(adapter.sentReports == 0)
        #expect(adapter.lastUnreadReport?.raw == Data("\u{0}".utf8))

        // Through the page script's envelopes, as the WebKit handler hands them over.
        adapter.handle(OutgoingTapReport(body: #"{"kind":"blind","reason":"window.GBGBridge is frozen"}"#))
        #expect(adapter.unreadReports == 8)
        #expect(adapter.lastTapProblem?.hasSuffix("window.GBGBridge is frozen") == true)
        adapter.handle(OutgoingTapReport(body: 42))
        #expect(adapter.unreadReports == 9)
        #expect(adapter.lastTapProblem?.contains("not a report") == true)
        let sent = #"{"version":"1.0","correlationId":"ios-event-1","type":"event","timestamp":1,"payload":{"action":"host.ping"}}"#
        let envelope = String(decoding: try JSONSerialization.data(withJSONObject: ["kind": "sent", "json": sent]), as: UTF8.self)
        adapter.handle(OutgoingTapReport(body: envelope))
        #expect(adapter.sentReports == 1)
        #expect(adapter.unreadReports == 9)
    }

    @Test("an unread report reaches the inspector as a sent malformed row with its raw text and reason; the snapshot counts them and keeps the last")
    func unreadReportsAreVisible() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        let adapter = app.adapter
        let raw = #"{"version":"1.0","type":"response","timestamp":1,"payload":{"action":"a"}}"#
        adapter.reportSent(json: raw)
        let events = try await session.events { events in
            events.contains { if case .malformed = $0 { true } else { false } }
        }
        let row = try #require(events.lazy.compactMap { if case .malformed(let record) = $0 { record } else { nil } }.first)
        #expect(row.direction == .sent)
        #expect(row.raw == raw)
        #expect(row.reason == "missing required field 'correlationId'")

        adapter.handle(.unreportable(reason: "a cycle"))
        let later = try await app.session(subscribe: false)
        defer { later.close() }
        _ = try await later.run(.snapshot)
        guard case .snapshot(_, let state) = try await later.next(where: { if case .snapshot = $0 { true } else { false } }) else { return }
        #expect(state.counts.unreadSentReports == 2)
        #expect(state.counts.malformed == 2)
        #expect(state.lastUnreadSentReport?.reason.hasSuffix("a cycle") == true)
        #expect(state.lastUnreadSentReport?.direction == .sent)
        #expect(state.malformed.map(\.direction) == [.sent, .sent])
        #expect(adapter.inspectionSnapshot().unreadSentReports == 2)
    }

    @Test("an agent started after unread reports takes their count and the last one from the adapter's snapshot")
    func unreadReportsBeforeTheAgent() async throws {
        let host = BridgeHost(hostVersion: "2.0.0")
        let adapter = PublicAPIHost(api: host, hostVersion: "2.0.0")
        adapter.reportSent(json: "{oops")
        adapter.handle(.invalid("a body that is neither a string nor a dictionary"))
        let snapshot = adapter.inspectionSnapshot()
        #expect(snapshot.unreadSentReports == 2)
        #expect(snapshot.lastUnreadSentReport?.reason.hasSuffix("neither a string nor a dictionary") == true)
        let agent = try EmbeddedAgent(serving: adapter, over: host, journey: RecordingJourneyTransport(), name: "late", clock: ManualClock())
        defer { agent.stop() }
        let session = try await EmbeddedSession.open(on: agent, subscribe: false)
        defer { session.close() }
        _ = try await session.run(.snapshot)
        guard case .snapshot(_, let state) = try await session.next(where: { if case .snapshot = $0 { true } else { false } }) else { return }
        #expect(state.counts.unreadSentReports == 2)
        #expect(state.lastUnreadSentReport?.direction == .sent)
        #expect(state.lastUnreadSentReport?.reason == snapshot.lastUnreadSentReport?.reason)
    }

    // Troubleshooting page, "Messages Not Being Received by the Web Journey": "window.GBGBridge.receive
    // not defined. The web journey must replace the no-op receive() with its own implementation."
    @Test("a delivery the page script saw reach the no-op receive is a sent message marked lost")
    func lostDelivery() async throws {
        let app = try AppUnderTest()
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        let sent = #"{"version":"1.0","correlationId":"ios-event-2","type":"event","timestamp":1,"payload":{"action":"host.ready"}}"#
        let envelope = String(decoding: try JSONSerialization.data(withJSONObject: ["kind": "sent", "json": sent, "lost": "no receive yet"]), as: UTF8.self)
        app.adapter.handle(OutgoingTapReport(body: envelope))
        let events = try await session.events { events in
            events.contains { if case .traffic = $0 { true } else { false } }
        }
        let record = try #require(events.lazy.compactMap { if case .traffic(let record) = $0 { record } else { nil } }.first)
        #expect(record.lost == "no receive yet")
        #expect(record.direction == .sent)
        #expect(app.adapter.lostReports == 1)
    }

    @Test("a response in another shape is shown as read (its action from its request), with the exact reported text beside it")
    func otherShapesReachTheInspector() async throws {
        let app = try AppUnderTest(answerUnhandled: false)
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        app.receive(request("device.info", id: "r7"))
        let inner = #"{"version":"1.0","correlationId":"r7","type":"response","timestamp":"2024-11-23T22:13:20Z","status":"success"}"#
        let literal = String(decoding: try JSONEncoder().encode(inner), as: UTF8.self)
        app.adapter.reportSent(json: literal)
        let events = try await session.events { events in
            events.contains { if case .traffic(let record) = $0 { record.direction == .sent } else { false } }
        }
        let record = try #require(events.lazy.compactMap { if case .traffic(let record) = $0, record.direction == .sent { record } else { nil } }.first)
        #expect(record.message.payload.action == "device.info")
        #expect(record.message.payload.status == .success)
        #expect(record.message.timestamp == 1_732_400_000_000)
        #expect(record.reported == literal)
        #expect(app.adapter.unreadReports == 0)
    }

    @Test("a response without an action takes the action of a request the adapter saw arrive, even once GBGBridge holds it no longer")
    func responseThreadedFromWhatTheAdapterSaw() async throws {
        let app = try AppUnderTest(answerUnhandled: false)
        defer { app.stop() }
        let session = try await app.subscribedSession()
        defer { session.close() }
        app.receive(request("nfc.read", id: "r8"))
        // The app answers with no page to report it, and clears its log (a long session).
        app.host.respond(to: "r8", status: .success)
        app.host.clearReceivedMessages()
        #expect(app.host.pendingRequests.isEmpty && app.host.receivedMessages.isEmpty)
        app.adapter.reportSent(json: #"{"version":"1.0","correlationId":"r8","type":"response","timestamp":1,"payload":{"status":"success"}}"#)
        // Two sent records: the app's own response (reported by the page tap), then this one.
        let events = try await session.events { events in
            events.filter { if case .traffic(let record) = $0 { record.direction == .sent && record.message.correlationId == "r8" } else { false } }.count == 2
        }
        let record = try #require(events.lazy.compactMap { if case .traffic(let record) = $0, record.message.correlationId == "r8", record.direction == .sent { record } else { nil } }.last)
        #expect(record.reported != nil, "the report without an action, as read")
        #expect(record.message.payload.action == "nfc.read")
    }
}

// MARK: - Support

/// The seed's `MessageLogger`: records every delegate call and answers unhandled requests with
/// `.unsupported` (Common Patterns).
@MainActor
final class MessageLogger: BridgeHostDelegate {
    private(set) var received: [String] = []
    private(set) var unhandled: [String] = []
    private weak var host: BridgeHost?
    private let answerUnhandled: Bool

    init(host: BridgeHost, answerUnhandled: Bool) {
        self.host = host
        self.answerUnhandled = answerUnhandled
    }

    func bridgeHost(_ host: BridgeHost, didReceive message: BridgeMessage) {
        received.append(message.correlationId)
    }

    func bridgeHost(_ host: BridgeHost, unhandledRequest message: BridgeMessage) {
        unhandled.append(message.correlationId)
        guard answerUnhandled else { return }
        host.respond(
            to: message.correlationId, status: .unsupported,
            error: BridgeErrorPayload(code: "UNSUPPORTED", message: "Not supported", recoverable: false))
    }
}

/// An app: a host with its own delegate, a journey behind a page tap, and the GBGBridge adapter
/// served by the agent's core in memory (`EmbeddedAgent`), all on one `ManualClock`: the
/// adapter's polling and settling wait on it, so a test moves time where it means to and never
/// waits on it otherwise.
@MainActor
final class AppUnderTest {
    let host = BridgeHost(hostVersion: "2.0.0")
    let journey = RecordingJourneyTransport()
    let logger: MessageLogger
    let clock = ManualClock()
    let adapter: PublicAPIHost<BridgeHost>
    let agent: EmbeddedAgent
    private let tap: PageTapTransport

    /// The adapter is made, served and started in the order `GBGBridgeInspector.start` uses.
    /// Without `pageScript`, the page reports nothing the host sends (no script installed).
    /// With `journeyPage`, `inject` posts there (set before the agent starts, as `GBGBridgeInspector.start` does).
    init(answerUnhandled: Bool = true, reportLater: Bool = false, pageScript: Bool = true, journeyPage: (any JourneyPage)? = nil) throws {
        logger = MessageLogger(host: host, answerUnhandled: answerUnhandled)
        host.delegate = logger
        let adapter = PublicAPIHost(api: host, hostVersion: "2.0.0", clock: clock)
        adapter.journeyPage = journeyPage
        self.adapter = adapter
        agent = try EmbeddedAgent(serving: adapter, over: host, journey: journey, name: "app", clock: clock)
        adapter.start()
        tap = PageTapTransport(wrapping: journey) { [weak adapter] json in
            // WebKit hands a page's posts over on a later turn of the main run loop.
            if reportLater {
                Task { @MainActor in adapter?.reportSent(json: json) }
            } else {
                adapter?.reportSent(json: json)
            }
        }
        if pageScript {
            host.attach(tap)
        } else {
            host.attach(journey)
        }
        adapter.reportPageLoaded()
    }

    /// Stops the agent, then the adapter (which gives the delegate slot back), as
    /// `GBGBridgeInspector.stop()` does.
    func stop() {
        agent.stop()
        adapter.stop()
    }

    /// Gives `slot` the UI-driven handler of the docs: it holds the slot until something calls
    /// `complete(_:)` (the app's camera UI, or the inspector).
    func holdUntilCompleted(_ slot: KeyPath<BridgeHost, CaptureCapability>) {
        host[keyPath: slot].handler = { [weak host] _ in
            await host?[keyPath: slot].awaitCompletion() ?? .cancelled(reason: "gone")
        }
    }

    func receive(_ text: String) { host.receive(text: text) }

    /// A subscribed session that has read its first snapshot: what it reads next are events.
    func subscribedSession() async throws -> EmbeddedSession {
        let session = try await self.session(subscribe: true)
        _ = try await session.next { if case .snapshot = $0 { return true } else { return false } }
        return session
    }

    func session(subscribe: Bool) async throws -> EmbeddedSession {
        try await EmbeddedSession.open(on: agent, subscribe: subscribe)
    }
}

/// An inspector's session with an `EmbeddedAgent`, decoded as the real client decodes frames
/// (`AgentFrame`). Frames that arrive while a reply is awaited are kept for the next reads.
/// Waits run the agent (whose commands run on the main actor) until what is awaited is there,
/// bounded by `eventually`.
@MainActor
final class EmbeddedSession {
    private let agent: EmbeddedAgent
    private let connection: EmbeddedConnection
    private var buffered: [AgentFrame] = []
    private var nextCommand = 0
    private(set) var hello: AgentHello

    /// A command's reply, as `InspectorSession.Reply` has it.
    struct Reply {
        var id: String
        var result: Result<JSONValue, InspectorError>
        var sent: [BridgeMessage]
    }

    private init(agent: EmbeddedAgent, connection: EmbeddedConnection, hello: AgentHello) {
        self.agent = agent
        self.connection = connection
        self.hello = hello
    }

    /// Connects, reads the agent's hello and sends the client's.
    static func open(on agent: EmbeddedAgent, subscribe: Bool) async throws -> EmbeddedSession {
        let connection = agent.connect()
        agent.run()
        var frames = try connection.readLines().map { try AgentFrame.decode(Data($0)) }
        guard let index = frames.firstIndex(where: { if case .hello = $0 { true } else { false } }),
            case .hello(let hello) = frames.remove(at: index)
        else { throw SessionTimeout() }
        connection.write(raw: String(decoding: try ClientHello(client: "gbg-tests", subscribe: subscribe).frame(), as: UTF8.self))
        let session = EmbeddedSession(agent: agent, connection: connection, hello: hello)
        session.buffered = frames
        return session
    }

    func close() { connection.close() }

    /// Sends `command` and waits for its reply; other frames stay for the next reads.
    func run(_ command: InspectorCommand) async throws -> Reply {
        try await reply(to: send(command))
    }

    /// Sends `command`, runs the agent (which starts it on the main actor) and returns its id.
    func send(_ command: InspectorCommand) throws -> String {
        nextCommand += 1
        let id = "c\(nextCommand)"
        connection.write(raw: String(decoding: try command.frame(id: id), as: UTF8.self))
        agent.run()
        return id
    }

    /// Waits for the reply to the command `id`; other frames stay for the next reads.
    func reply(to id: String) async throws -> Reply {
        var reply: Reply?
        try await pump {
            reply = takeReply(id)
            return reply != nil
        }
        guard let reply else { throw SessionTimeout() }
        return reply
    }

    /// The reply to the command `id` if the agent has written it by now (runs the agent once).
    func replyNow(to id: String) throws -> Reply? {
        agent.run()
        buffered += try connection.readLines().map { try AgentFrame.decode(Data($0)) }
        return takeReply(id)
    }

    private func takeReply(_ id: String) -> Reply? {
        guard let index = buffered.firstIndex(where: { if case .reply(id, _, _) = $0 { true } else { false } }),
            case .reply(_, let result, let sent) = buffered.remove(at: index)
        else { return nil }
        return Reply(id: id, result: result, sent: sent)
    }

    /// The next frame that matches; the frames before it are passed over.
    func next(where matches: (AgentFrame) -> Bool) async throws -> AgentFrame {
        var found: AgentFrame?
        try await pump {
            guard let index = buffered.firstIndex(where: matches) else {
                buffered.removeAll()
                return false
            }
            found = buffered[index]
            buffered.removeFirst(index + 1)
            return true
        }
        guard let found else { throw SessionTimeout() }
        return found
    }

    /// Events, in order, until `done` holds for those read so far; other frames are passed over.
    func events(until done: ([WireEvent]) -> Bool) async throws -> [WireEvent] {
        var events: [WireEvent] = []
        var finished = false
        try await pump {
            while !buffered.isEmpty {
                if case .event(_, let event) = buffered.removeFirst() {
                    events.append(event)
                    if done(events) {
                        finished = true
                        return true
                    }
                }
            }
            return false
        }
        guard finished else { throw SessionTimeout() }
        return events
    }

    /// Runs the agent and reads what it wrote until `found` says the awaited frame is there.
    private func pump(_ found: () throws -> Bool) async throws {
        var failure: (any Error)?
        _ = await eventually {
            agent.run()
            do {
                buffered += try connection.readLines().map { try AgentFrame.decode(Data($0)) }
                return try found()
            } catch {
                failure = error
                return true
            }
        }
        if let failure { throw failure }
    }
}

struct SessionTimeout: Error {}
struct TestFailure: Error {}

func request(_ action: String, id: String) -> String {
    #"{"version":"1.0","correlationId":"\#(id)","type":"request","timestamp":1,"payload":{"action":"\#(action)","data":{}}}"#
}

func event(_ action: String, id: String) -> String {
    #"{"version":"1.0","correlationId":"\#(id)","type":"event","timestamp":1,"payload":{"action":"\#(action)"}}"#
}


