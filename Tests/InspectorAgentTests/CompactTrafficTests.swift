import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorProtocol
import Testing

/// A plain traffic record crosses the inbox as its bytes and a few scalars (`TrafficArena`)
/// instead of the whole change: the agent must make the very same frames and keep the very same
/// state either way, for ordinary and hostile messages, mixed with the changes that keep the
/// whole path (held, faulted, edited, too large to forward).
@Suite("Traffic handed to the agent as bytes")
struct CompactTrafficTests {
    static let t0 = Date(timeIntervalSince1970: 1_764_000_000.123)

    static func freshState() -> AgentState {
        AgentState(
            host: WireHostInfo(name: "t", pid: 1, hostVersion: "1.0", environment: "test", startedAt: 0, inspection: "native", receivedMessagesCap: 200),
            snapshot: BridgeSnapshot(
                hostVersion: "1.0", environment: "test", lastError: nil, receivedMessages: [], pendingRequests: [], slots: [],
                customCapabilities: [], isJourneyAttached: true, time: t0),
            limits: AgentLimits())
    }

    static func message(_ id: String, _ type: String, action: String, data: String = "{}") throws -> (BridgeMessage, Data) {
        let json = Data(#"{"version":"1.0","correlationId":"\#(id)","type":"\#(type)","timestamp":1,"payload":{"action":"\#(action)","data":\#(data)}}"#.utf8)
        return (try BridgeMessageCodec().decode(json).get(), json)
    }

    /// Changes as a host reports them: plain traffic each way with ordinary and hostile text, a
    /// request that goes pending, one held after it was logged and one held before, an edit
    /// released before its request is logged (found again by correlation id), faulted and held
    /// records, a message with raw line breaks, and one too large to forward.
    static func changes() throws -> [BridgeChange] {
        var changes: [BridgeChange] = []
        var time = t0
        func traffic(_ direction: TrafficRecord.Direction, _ pair: (BridgeMessage, Data), hold: HoldMark? = nil, fault: FaultMark? = nil) {
            time = time.addingTimeInterval(0.001)
            changes.append(.traffic(TrafficRecord(direction: direction, message: pair.0, json: pair.1, time: time, hold: hold, fault: fault)))
        }
        let hostile = [
            #"{"text":"quote \" backslash \\ tab \t nul \u0000 del \u007f"}"#, #"{"text":"é 日本語 🙂 \u2028 \u2029"}"#,
            #"{"text":"</script><!--"}"#, #"{"n":[1,2.5,-3,1e20,null,true]}"#,
        ]
        for (index, data) in hostile.enumerated() {
            traffic(.received, try message("r\(index)", "request", action: "device.info", data: data))
            traffic(.sent, try message("r\(index)", "response", action: "device.info", data: data))
        }
        // A request that goes to pendingRequests as it arrives: its record reuses the bytes.
        let pending = try message("p1", "request", action: "custom.thing", data: #"{"a":"\u0001"}"#)
        traffic(.received, pending)
        changes.append(.pendingAdded(PendingRequest(message: pending.0, since: time)))
        // A pending request that is not the last received: encoded again.
        changes.append(.pendingAdded(PendingRequest(message: try message("p0", "request", action: "custom.other").0, since: time)))
        // Held after it was logged: its edit marks that record.
        let logged = try message("h1", "request", action: "custom.thing")
        traffic(.received, logged)
        changes.append(.held(HeldMessage(id: "hold-1", direction: .received, message: logged.0, json: logged.1, since: time, breakpoint: "b", timeLimit: 30)))
        changes.append(.heldResolved(HeldResolution(
            id: "hold-1", correlationId: "h1", direction: .received, outcome: .edited, reason: .command,
            message: try message("h1", "request", action: "custom.edited").0, time: time)))
        // Held before it was logged, released edited: logged later, found by correlation id.
        let early = try message("e1", "request", action: "custom.thing", data: #"{"x":1}"#)
        changes.append(.held(HeldMessage(id: "hold-2", direction: .received, message: early.0, json: early.1, since: time, breakpoint: "b", timeLimit: 30)))
        changes.append(.heldResolved(HeldResolution(
            id: "hold-2", correlationId: "e1", direction: .received, outcome: .edited, reason: .command, message: nil, time: time)))
        traffic(.received, try message("other", "request", action: "device.info"))
        traffic(.received, try message("e1", "request", action: "custom.thing", data: #"{"x":2}"#))
        // Records that keep the whole path.
        traffic(.sent, try message("f1", "response", action: "device.info"), fault: FaultMark(rule: "r1", effect: .delayed, detail: "1 s"))
        traffic(.sent, try message("h2", "event", action: "host.event"), hold: HoldMark(id: "hold-3", outcome: .released))
        // Raw line breaks in what the journey sent: replaced by spaces in the frame.
        let pretty = Data("{\n\"version\":\"1.0\",\r\n\"correlationId\":\"nl\",\"type\":\"event\",\"timestamp\":1,\"payload\":{\"action\":\"a\",\"data\":{}}}".utf8)
        traffic(.received, (try BridgeMessageCodec().decode(pretty).get(), pretty))
        // Many ordinary ones, and a large one.
        for index in 0..<300 { traffic(index % 2 == 0 ? .received : .sent, try message("m\(index)", index % 2 == 0 ? "request" : "response", action: "device.info")) }
        traffic(.received, try message("big", "request", action: "device.info", data: #"{"blob":""# + String(repeating: "x", count: 1 << 20) + #""}"#))
        changes.append(.journeyAttachment(false))
        return changes
    }

    /// The frames and the final snapshot of `changes` applied the whole way, each with the
    /// links the host's side would give it.
    static func wholePath(_ changes: [BridgeChange]) -> (frames: [[UInt8]], snapshot: [UInt8]) {
        var state = freshState()
        var memory = TrafficMemory()
        var frames: [[UInt8]] = []
        for change in changes {
            if case .traffic(let record) = change { memory.note(record.direction, record.message) }
            frames.append(state.apply(change, tag: nil, links: memory.links(of: change)).frame)
        }
        return (frames, state.snapshotFrame())
    }

    /// The same through the inbox, as the agent gets them (plain traffic as bytes).
    static func throughInbox(_ changes: [BridgeChange], drainEvery: Int) throws -> (frames: [[UInt8]], snapshot: [UInt8], compact: Int) {
        let inbox = try AgentInbox()
        var state = freshState()
        var frames: [[UInt8]] = []
        var compact = 0
        func drain() {
            inbox.drain { batch in
                batch.forEach { record in
                    compact += 1
                    frames.append(state.apply(record))
                } other: { item in
                    switch item {
                    case .change(let change, let tag, let links):
                        frames.append(state.apply(change, tag: tag, links: links).frame)
                    default:
                        Issue.record("unexpected item")
                    }
                }
            }
        }
        for (index, change) in changes.enumerated() {
            inbox.push(change, tag: nil)
            if index % drainEvery == drainEvery - 1 { drain() }
        }
        drain()
        return (frames, state.snapshotFrame(), compact)
    }

    @Test("Plain traffic as bytes gives the frames and the state that the whole change gives, in any batching")
    func sameFramesAndState() throws {
        let changes = try Self.changes()
        let whole = Self.wholePath(changes)
        for drainEvery in [1, 7, changes.count] {
            let inbox = try Self.throughInbox(changes, drainEvery: drainEvery)
            #expect(inbox.compact > 300)
            #expect(inbox.frames.count == whole.frames.count)
            for (index, (left, right)) in zip(inbox.frames, whole.frames).enumerated() where left != right {
                Issue.record("frame \(index) differs: \(String(decoding: left.prefix(300), as: UTF8.self)) vs \(String(decoding: right.prefix(300), as: UTF8.self))")
            }
            #expect(inbox.snapshot == whole.snapshot)
        }
        // The cases that matter did happen: a pending record reusing the bytes, an edit marking a
        // logged record, an edit found again by correlation id, line breaks replaced.
        let snapshot = String(decoding: whole.snapshot, as: UTF8.self)
        #expect(snapshot.contains(#""hold":{"id":"hold-1","outcome":"edited"},"delivered""#))
        #expect(snapshot.contains(#""hold":{"id":"hold-2","outcome":"edited"},"original""#))
        #expect(snapshot.contains(#"{"correlationId":"p1","action":"custom.thing","since":"#))
        #expect(!whole.frames.contains { $0.dropLast().contains(0x0A) || $0.contains(0x0D) })
    }

    @Test("A message with invalid UTF-8 or control bytes is forwarded byte for byte, as the whole path does")
    func hostileBytes() throws {
        let (message, _) = try Self.message("bad", "request", action: "device.info")
        var bytes = Array(#"{"version":"1.0","correlationId":"bad","type":"request","timestamp":1,"payload":{"action":"device.info","data":{"s":""#.utf8)
        bytes += [0xFF, 0xFE, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0x01, 0x7F]
        bytes += Array(#""}}}"#.utf8)
        let change = BridgeChange.traffic(TrafficRecord(direction: .received, message: message, json: Data(bytes), time: Self.t0))
        let whole = Self.wholePath([change])
        let inbox = try Self.throughInbox([change], drainEvery: 1)
        #expect(inbox.compact == 1)
        #expect(inbox.frames == whole.frames)
        #expect(inbox.snapshot == whole.snapshot)
        #expect(whole.frames[0].firstRange(of: bytes) != nil)
    }

    @Test("A pending request reuses the bytes just received up to the pending record's limit; past it the record is truncated (the agent keeps no copy of a message that large)")
    func pendingReuseIsBounded() throws {
        for path in ["whole", "inbox"] {
            let big = try Self.message("big", "request", action: "device.info", data: #"{"blob":""# + String(repeating: "x", count: AgentState.pendingMessageLimit) + #""}"#)
            let small = try Self.message("small", "request", action: "device.info", data: #"{"n":1}"#)
            var changes: [BridgeChange] = []
            for pair in [big, small] {
                changes.append(.traffic(TrafficRecord(direction: .received, message: pair.0, json: pair.1, time: Self.t0)))
                changes.append(.pendingAdded(PendingRequest(message: pair.0, since: Self.t0)))
            }
            let frames = path == "whole" ? Self.wholePath(changes).frames : try Self.throughInbox(changes, drainEvery: 1).frames
            let bigPending = String(decoding: frames[1], as: UTF8.self)
            #expect(bigPending.contains(#""truncated":true"#), "\(path): \(bigPending.prefix(300))")
            #expect(!bigPending.contains("xxxx"), "\(path): the large message's data is left out of its pending record")
            let smallPending = String(decoding: frames[3], as: UTF8.self)
            #expect(!smallPending.contains("truncated"), "\(path): \(smallPending)")
            #expect(smallPending.contains(String(decoding: small.1, as: UTF8.self)), "\(path): the small request's bytes, as received: \(smallPending)")
        }
    }
}
