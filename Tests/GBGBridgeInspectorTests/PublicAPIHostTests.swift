import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// The GBGBridge adapter, served by the real agent over a real socket and driven by the real
/// client, with this project's host seen only through the mirror of GBGBridge's public API
/// (issue 12, point 2). The app's own delegate is the one from the seed example ("MessageLogger":
/// it logs every message and answers unhandled requests with `.unsupported`).
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
        #expect(host.unsupportedReason(.clearError)?.contains("clearError") == true)
        #expect(host.unsupportedReason(.respond) == nil)
        for command in [InspectorCommand.clearError, .clearLog] {
            let reply = try await session.run(command)
            guard case .failure(let error) = reply.result else {
                Issue.record("\(command) was not refused")
                continue
            }
            #expect(error.knownCode == .unsupported)
            #expect(error.message == host.unsupportedReason(command.feature ?? .clearError))
        }
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
        #expect(app.inspector.adapter.sentReports == 1)
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
        app.inspector.adapter.refresh()
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

        // A change nothing reports (the app disables a slot) is found by polling.
        host.selfieCapture.permissionState = .denied
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
        app.inspector.adapter.refresh()
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
        let adapter = app.inspector.adapter
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
        let adapter = app.inspector.adapter
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
        let directory = NSTemporaryDirectory() + "gbg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let agent = try InspectorAgent(serving: adapter, name: "late", socketPath: directory + "/a.sock")
        defer { agent.stop() }
        let path = agent.socketPath
        let session = try await onThread { AppClient(try InspectorSession(socketPath: path, subscribe: false, clientName: "gbg-tests")) }
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
        app.inspector.adapter.handle(OutgoingTapReport(body: envelope))
        let events = try await session.events { events in
            events.contains { if case .traffic = $0 { true } else { false } }
        }
        let record = try #require(events.lazy.compactMap { if case .traffic(let record) = $0 { record } else { nil } }.first)
        #expect(record.lost == "no receive yet")
        #expect(record.direction == .sent)
        #expect(app.inspector.adapter.lostReports == 1)
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
        app.inspector.adapter.reportSent(json: literal)
        let events = try await session.events { events in
            events.contains { if case .traffic(let record) = $0 { record.direction == .sent } else { false } }
        }
        let record = try #require(events.lazy.compactMap { if case .traffic(let record) = $0, record.direction == .sent { record } else { nil } }.first)
        #expect(record.message.payload.action == "device.info")
        #expect(record.message.payload.status == .success)
        #expect(record.message.timestamp == 1_732_400_000_000)
        #expect(record.reported == literal)
        #expect(app.inspector.adapter.unreadReports == 0)
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
        app.inspector.adapter.reportSent(json: #"{"version":"1.0","correlationId":"r8","type":"response","timestamp":1,"payload":{"status":"success"}}"#)
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

/// An app: a host with its own delegate, a journey behind a page tap, and the inspector started
/// the way an app starts it.
@MainActor
final class AppUnderTest {
    let host = BridgeHost(hostVersion: "2.0.0")
    let journey = RecordingJourneyTransport()
    let logger: MessageLogger
    let inspector: GBGBridgeInspector<BridgeHost>
    private let tap: PageTapTransport
    private let directory: String

    init(answerUnhandled: Bool = true, reportLater: Bool = false) throws {
        logger = MessageLogger(host: host, answerUnhandled: answerUnhandled)
        host.delegate = logger
        directory = NSTemporaryDirectory() + "gbg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        inspector = try GBGBridgeInspector.start(api: host, hostVersion: "2.0.0", name: "app", socketPath: directory + "/a.sock")
        let adapter = inspector.adapter
        tap = PageTapTransport(wrapping: journey) { [weak adapter] json in
            // WebKit hands a page's posts over on a later turn of the main run loop.
            if reportLater {
                Task { @MainActor in adapter?.reportSent(json: json) }
            } else {
                adapter?.reportSent(json: json)
            }
        }
        host.attach(tap)
        adapter.reportPageLoaded()
    }

    func stop() {
        inspector.stop()
        try? FileManager.default.removeItem(atPath: directory)
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
    func subscribedSession() async throws -> AppClient {
        let session = try await self.session(subscribe: true)
        _ = try await session.next { if case .snapshot = $0 { return true } else { return false } }
        return session
    }

    func session(subscribe: Bool) async throws -> AppClient {
        let path = inspector.agent.socketPath
        return try await onThread { AppClient(try InspectorSession(socketPath: path, subscribe: subscribe, clientName: "gbg-tests")) }
    }
}

/// A client session, used from one test thread at a time.
final class AppClient: @unchecked Sendable {
    let session: InspectorSession
    init(_ session: InspectorSession) { self.session = session }

    var hello: AgentHello { session.hello }
    func close() { session.close() }

    func run(_ command: InspectorCommand) async throws -> InspectorSession.Reply {
        try await onThread { try self.session.run(command) }
    }

    /// The next frame that matches, within ten seconds.
    func next(where matches: @escaping @Sendable (AgentFrame) -> Bool) async throws -> AgentFrame {
        try await onThread {
            let deadline = Date().addingTimeInterval(10)
            while deadline.timeIntervalSinceNow > 0 {
                if let frame = try self.session.nextFrame(timeout: deadline.timeIntervalSinceNow), matches(frame) { return frame }
            }
            throw SessionTimeout()
        }
    }

    /// Events until `done` holds for those read so far, within ten seconds.
    func events(until done: @escaping @Sendable ([WireEvent]) -> Bool) async throws -> [WireEvent] {
        try await onThread {
            var events: [WireEvent] = []
            let deadline = Date().addingTimeInterval(10)
            while deadline.timeIntervalSinceNow > 0 {
                if case .event(_, let event)? = try self.session.nextFrame(timeout: deadline.timeIntervalSinceNow) {
                    events.append(event)
                    if done(events) { return events }
                }
            }
            throw SessionTimeout()
        }
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


