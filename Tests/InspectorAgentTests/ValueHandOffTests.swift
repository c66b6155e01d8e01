import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorProtocol
import Testing

/// The GBGBridge adapter hands the agent a received message as a value (the agent's thread
/// encodes it: ``AgentInbox/pushReceived(_:time:tag:)``) and a plain sent report as its text
/// (``AgentInbox/pushSent(json:time:)``), instead of whole traffic records it built and encoded on
/// the app's main thread; whether a pending or held message is the one logged last is then
/// answered on the agent's thread. Fed the same host history both ways, through the inbox, the
/// agent must make the very frames, in the very order, and keep the very state.
@Suite("A host's messages handed over as values and text")
struct ValueHandOffTests {
    /// One thing the adapter reports, as it reported it before (`whole`) and now.
    enum Step {
        /// A message GBGBridge received, caused by a command (`tagged`) or not.
        case received(BridgeMessage, tagged: Bool)
        /// A plain sent report: BridgeCore's message JSON as it stands.
        case sent(String)
        /// Any other change, reported alike both ways.
        case change(BridgeChange)
    }

    static let tag = AgentInbox.CommandTag(client: 1, command: "c1", kind: "inject")

    static func message(_ id: String, _ type: MessageType, action: String, data: [String: JSONValue]?) -> BridgeMessage {
        BridgeMessage(correlationId: id, type: type, timestamp: 1_764_000_000_000, payload: .init(action: action, data: data))
    }

    /// The adapter's history: hostile and ordinary messages each way, requests that go pending as
    /// they arrive (and one equal to an earlier one that is not the last), holds of the message
    /// logged last each way and of one that is not, messages an inspector's command caused, a
    /// message the codec cannot encode (not logged), sent texts in the writers' key orders and
    /// with whitespace, and a large message.
    static func steps() throws -> [Step] {
        var steps: [Step] = []
        let hostile: [[String: JSONValue]?] = [
            ["text": .string("quote \" backslash \\ tab \t nul \u{0} del \u{7f}")], ["text": .string("é 日本語 🙂 \u{2028} \u{2029}")],
            ["n": .array([.number(1), .number(2.5), .number(-3), .number(1e20), .number(0.1), .number(-0.0), .null, .bool(true)])],
            ["deep": .object(["a": .array([.object(["b": .object([:])])])])], nil, [:],
        ]
        for (index, data) in hostile.enumerated() {
            let request = message("r\(index)", .request, action: "device.info", data: data)
            steps.append(.received(request, tagged: false))
            let response = message("r\(index)", .response, action: "device.info", data: data)
            steps.append(.sent(String(decoding: try BridgeMessageCodec().encode(response), as: UTF8.self)))
        }
        // Goes pending as it arrives: its record reuses the bytes (compared on the agent's thread).
        let pending = message("p1", .request, action: "custom.thing", data: hostile[0])
        steps.append(.received(pending, tagged: false))
        steps.append(.change(.pendingAdded(PendingRequest(message: pending, since: Date(timeIntervalSince1970: 1)))))
        // Equal to p1 but not the last received: encoded again.
        steps.append(.received(message("p2", .request, action: "custom.thing", data: nil), tagged: false))
        steps.append(.change(.pendingAdded(PendingRequest(message: pending, since: Date(timeIntervalSince1970: 2)))))
        // The codec cannot encode it: not logged, and p3 stays the last received.
        let p3 = message("p3", .request, action: "custom.thing", data: ["x": .number(1)])
        steps.append(.received(p3, tagged: false))
        steps.append(.received(message("nan", .request, action: "custom.thing", data: ["x": .number(.nan)]), tagged: false))
        steps.append(.change(.pendingAdded(PendingRequest(message: p3, since: Date(timeIntervalSince1970: 3)))))
        // Caused by an inspector's command: the whole path, marked.
        let injected = message("i1", .request, action: "custom.thing", data: ["y": .string("z")])
        steps.append(.received(injected, tagged: true))
        steps.append(.change(.pendingAdded(PendingRequest(message: injected, since: Date(timeIntervalSince1970: 4)))))
        // Held after it was logged each way, released edited: the edit marks the logged record.
        let logged = message("h1", .request, action: "custom.thing", data: ["k": .bool(false)])
        steps.append(.received(logged, tagged: false))
        steps.append(.change(.held(HeldMessage(
            id: "hold-1", direction: .received, message: logged, json: try BridgeMessageCodec().encode(logged), since: Date(), breakpoint: "b",
            timeLimit: 30))))
        steps.append(.change(.heldResolved(HeldResolution(
            id: "hold-1", correlationId: "h1", direction: .received, outcome: .edited, reason: .command,
            message: message("h1", .request, action: "custom.thing", data: ["k": .bool(true)]), time: Date(timeIntervalSince1970: 5)))))
        // Sent in the documented order with whitespace, then held: compared by reading the text back.
        let spaced = #" {"version":"1.0", "correlationId":"ev1","type":"event","timestamp":2,"payload":{"action":"journey.step","data":{"s":"\u2028"}}} "#
        steps.append(.sent(spaced))
        let spacedMessage = try BridgeMessageCodec().decode(Data(spaced.utf8)).get()
        steps.append(.change(.held(HeldMessage(
            id: "hold-2", direction: .sent, message: spacedMessage, json: Data(spaced.utf8), since: Date(), breakpoint: "b", timeLimit: 30))))
        steps.append(.change(.heldResolved(HeldResolution(
            id: "hold-2", correlationId: "ev1", direction: .sent, outcome: .edited, reason: .command,
            message: message("ev1", .event, action: "journey.step", data: ["s": .string("edited")]), time: Date(timeIntervalSince1970: 6)))))
        // A held sent message that is not the last sent: its original is kept instead.
        steps.append(.change(.held(HeldMessage(
            id: "hold-3", direction: .sent, message: message("old", .event, action: "x", data: nil), json: Data("{}".utf8), since: Date(),
            breakpoint: "b", timeLimit: 30))))
        steps.append(.change(.journeyAttachment(false)))
        steps.append(.change(.lastError("boom", time: Date(timeIntervalSince1970: 7))))
        // Many ordinary ones, and a large one each way.
        for index in 0..<200 {
            if index % 2 == 0 {
                steps.append(.received(message("m\(index)", .request, action: "device.info", data: ["i": .number(Double(index))]), tagged: false))
            } else {
                steps.append(.sent(#"{"correlationId":"m\#(index)","payload":{"action":"device.info","status":"success"},"timestamp":3,"type":"response","version":"1.0"}"#))
            }
        }
        let blob = String(repeating: "x", count: 1 << 20)
        steps.append(.received(message("big", .request, action: "device.info", data: ["blob": .string(blob)]), tagged: false))
        steps.append(.sent(#"{"correlationId":"big2","payload":{"action":"a","data":{"blob":"\#(blob)"}},"timestamp":4,"type":"event","version":"1.0"}"#))
        return steps
    }

    /// The frames and the final snapshot of `steps` through an inbox, drained every `drainEvery`
    /// steps: reported whole, as the adapter did before (`whole`), or as values and text.
    static func run(_ steps: [Step], whole: Bool, drainEvery: Int) throws -> (frames: [[UInt8]], snapshot: [UInt8]) {
        let inbox = try AgentInbox()
        var state = CompactTrafficTests.freshState()
        var frames: [[UInt8]] = []
        func drain() {
            inbox.drain { batch in
                batch.forEach { record in
                    frames.append(state.apply(record))
                } other: { item in
                    switch item {
                    case .change(let change, let tag, let links):
                        frames.append(state.apply(change, tag: tag, links: links).frame)
                    default:
                        Issue.record("an item that is not a change after the batch's walk: \(item)")
                    }
                }
            }
        }
        var time = CompactTrafficTests.t0
        for (index, step) in steps.enumerated() {
            time = time.addingTimeInterval(0.001)
            switch step {
            case .received(let message, let tagged):
                if whole {
                    // As the adapter did: encoded on its thread, not reported when that failed.
                    if let json = try? BridgeMessageCodec().encode(message) {
                        inbox.push(.traffic(TrafficRecord(direction: .received, message: message, json: json, time: time)), tag: tagged ? tag : nil)
                    }
                } else {
                    inbox.pushReceived(message, time: time, tag: tagged ? tag : nil)
                }
            case .sent(let text):
                if whole {
                    let json = Data(text.utf8)
                    let message = try BridgeMessageCodec().decode(json).get()
                    inbox.push(.traffic(TrafficRecord(direction: .sent, message: message, json: json, time: time)), tag: nil)
                } else {
                    inbox.pushSent(json: text, time: time)
                }
            case .change(let change):
                inbox.push(change, tag: nil)
            }
            if index % drainEvery == drainEvery - 1 { drain() }
        }
        drain()
        return (frames, state.snapshotFrame())
    }

    @Test("the frames, their order and the state are those of the whole records, in any batching")
    func sameAsWholeRecords() throws {
        let steps = try Self.steps()
        let reference = try Self.run(steps, whole: true, drainEvery: steps.count)
        for drainEvery in [1, 3, 7, steps.count] {
            let handed = try Self.run(steps, whole: false, drainEvery: drainEvery)
            #expect(handed.frames.count == reference.frames.count, "drained every \(drainEvery)")
            for (index, (left, right)) in zip(handed.frames, reference.frames).enumerated() where left != right {
                Issue.record("drained every \(drainEvery), frame \(index) differs: \(String(decoding: left.prefix(300), as: UTF8.self)) vs \(String(decoding: right.prefix(300), as: UTF8.self))")
            }
            #expect(handed.snapshot == reference.snapshot, "drained every \(drainEvery)")
        }
        // The cases that matter happened: a pending record reusing the bytes of the last received
        // message, an edit marking a received and a sent record logged before the hold, the
        // command's record marked, and the message the codec cannot encode not logged.
        let snapshot = String(decoding: reference.snapshot, as: UTF8.self)
        #expect(snapshot.contains(#""hold":{"id":"hold-1","outcome":"edited"},"delivered""#))
        #expect(snapshot.contains(#""hold":{"id":"hold-2","outcome":"edited"},"delivered""#))
        #expect(!snapshot.contains(#""correlationId":"nan""#))
        let frames = reference.frames.map { String(decoding: $0, as: UTF8.self) }
        #expect(frames.contains { $0.contains(#""type":"pendingAdded""#) && $0.contains(#""correlationId":"p3""#) })
        #expect(frames.contains { $0.contains(#""correlationId":"i1""#) && $0.contains(#""origin":"inspector""#) })
    }

    @Test("a received message's record keeps its place among the other changes; one the codec cannot encode leaves no record")
    func orderAndEncodeFailure() throws {
        let inbox = try AgentInbox()
        let first = Self.message("a", .event, action: "x", data: ["n": .number(1)])
        inbox.push(.journeyAttachment(true), tag: nil)
        inbox.pushReceived(first, time: CompactTrafficTests.t0, tag: nil)
        inbox.push(.lastError("e", time: CompactTrafficTests.t0), tag: nil)
        inbox.pushReceived(Self.message("b", .event, action: "x", data: ["n": .number(.infinity)]), time: CompactTrafficTests.t0, tag: nil)
        inbox.pushSent(json: #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"y"}}"#, time: CompactTrafficTests.t0)
        inbox.pushReceived(first, time: CompactTrafficTests.t0, tag: Self.tag)
        var seen: [String] = []
        inbox.drain { batch in
            batch.forEach { record in
                seen.append("\(record.direction) \(String(decoding: record.json, as: UTF8.self).contains(#""correlationId":"a""#) ? "a" : "c")")
            } other: { item in
                switch item {
                case .change(.journeyAttachment, _, _): seen.append("journey")
                case .change(.lastError, _, _): seen.append("lastError")
                case .change(.traffic(let record), let tag, _): seen.append("whole \(record.message.correlationId) \(tag == nil ? "-" : "tagged")")
                default: seen.append("other")
                }
            }
        }
        #expect(seen == ["journey", "received a", "lastError", "sent c", "whole a tagged"])
    }

    @Test("the links: asked of the agent's thread for a message handed over as a value, of the text for one handed over as text")
    func linksLeftToTheAgent() throws {
        var memory = TrafficMemory()
        let request = Self.message("p", .request, action: "x", data: nil)
        let pending = BridgeChange.pendingAdded(PendingRequest(message: request, since: Date()))
        #expect(memory.links(of: pending) == AgentInbox.Links())
        memory.note(.received, .encodedOnAgentThread)
        #expect(memory.links(of: pending) == AgentInbox.Links(isLastReceivedEncoded: true))
        memory.note(.received, .message(request))
        #expect(memory.links(of: pending) == AgentInbox.Links(isLastReceived: true))
        let text = #"{"version":"1.0","correlationId":"p","type":"event","timestamp":1,"payload":{"action":"x"}}"#
        memory.note(.sent, .text(text))
        let event = try BridgeMessageCodec().decode(Data(text.utf8)).get()
        let held = BridgeChange.held(HeldMessage(id: "h", direction: .sent, message: event, json: Data(), since: Date(), breakpoint: "b", timeLimit: 1))
        let links = memory.links(of: held)
        #expect(links.lastLoggedJSON == Data(text.utf8))
        #expect(links.logged(is: event))
        memory.removeAll()
        #expect(memory.links(of: held) == AgentInbox.Links())
    }
}
