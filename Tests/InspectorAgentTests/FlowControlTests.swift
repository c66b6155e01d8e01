import AgentTesting
import BridgeCore
import Foundation
import InspectorAgent
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// A message of about `padding` bytes of data.
private func padded(_ id: String, padding: Int = 1000) -> String {
    messageText(type: "event", action: "load", id: id, data: #"{"pad":"\#(String(repeating: "x", count: padding))"}"#)
}

/// Makes sure the agent has taken in every change the host made before this call: a command runs on
/// the main actor after those changes, and its reply travels the same queue behind them.
@MainActor
private func barrier(_ client: RawClient, _ id: String) async throws {
    let reply = try await client.command(id, "respond", args: #"{"correlationId":"__barrier__","status":"success"}"#).reply
    #expect(reply.errorCode == "not_pending")
}

@MainActor
@Suite("Flow control: slow and stalled clients")
struct FlowControlTests {
    @Test("a client that falls behind gets one gap marker naming exactly the missed seqs, then a snapshot at its end, then live events")
    func gapThenSnapshot() async throws {
        var limits = AgentLimits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        let agent = try EmbeddedAgent(limits: limits)
        defer { agent.stop() }
        let slow = agent.connect(bufferBytes: 128 * 1024)
        slow.sendHello()
        agent.run()
        let start = try #require(try slow.readFrames().last?.seq)

        // Far more than the socket buffer plus the 64 KiB queue, in one batch, while `slow`
        // reads nothing: the buffer fills, then the event budget, then the rest is one gap.
        let count = 2000
        let last = start + count
        for index in 0..<count {
            agent.host.receive(text: padded("m-\(index)"))
            if index % 50 == 49 { await Task.yield() }  // the main actor is shared with other tests
        }
        agent.run()
        #expect(agent.heldBytes < agent.limits.heldBytesBound)

        // Now read everything that was kept for `slow`. Every seq up to `last` must be accounted
        // for exactly once: delivered as an event, or inside the gap whose snapshot follows it.
        var expected = start + 1
        var delivered = 0
        var gaps: [ClosedRange<Int>] = []
        var lastSnapshot: Frame?
        var pending: [Frame] = []
        func next() async throws -> Frame {
            for _ in 0..<10_000 where pending.isEmpty {
                pending = try slow.readFrames()
                agent.run()
                await Task.yield()
            }
            return pending.isEmpty ? try Frame(raw: Array(#"{"kind":"nothing"}"#.utf8)) : pending.removeFirst()
        }
        while expected <= last {
            let frame = try await next()
            _ = try AgentFrame.decode(Data(frame.raw))  // the Swift decoder reads every frame too
            switch frame.kind {
            case "event":
                try #require(frame.seq == expected, "event \(frame.seq ?? -1), expected \(expected)")
                expected += 1
                delivered += 1
            case "gap":
                let from = try #require(frame.json["from"]?.int)
                let to = try #require(frame.json["to"]?.int)
                #expect(frame.text == #"{"kind":"gap","from":\#(from),"to":\#(to)}"#)
                try #require(from == expected, "gap from \(from), expected \(expected)")
                #expect(to >= from)
                gaps.append(from...to)
                let resync = try await next()
                #expect(resync.kind == "snapshot")
                try #require(resync.seq == to, "the snapshot after a gap is as of the gap's end")
                let messages = resync.json["state"]?["messages"]?.arrayValue
                #expect(messages?.last?["seq"]?.int == to)
                #expect(messages?.last?["message"]?["correlationId"]?.stringValue == "m-\(to - start - 1)")
                lastSnapshot = resync
                expected = to + 1
            default:
                Issue.record("unexpected frame \(frame)")
                return
            }
        }
        #expect(expected == last + 1)
        #expect(gaps.count == 1, "one batch, one gap: \(gaps)")
        #expect(gaps.first?.upperBound == last)
        #expect(delivered > 0)
        #expect(delivered + gaps.reduce(0) { $0 + $1.count } == count)
        #expect(lastSnapshot != nil)

        // Live events continue right after.
        agent.receive(padded("after"))
        let next = try #require(try slow.readFrames().first)
        #expect(next.seq == last + 1)
        #expect(next.record?["message"]?["correlationId"]?.stringValue == "after")
        slow.send(#"{"kind":"command","id":"p","command":"ping"}"#)
        agent.run()
        #expect(try slow.readFrames().first?.ok == true)
    }

    @Test("InspectorSession decodes gap markers and the snapshots after them")
    func sessionSeesGap() async throws {
        var limits = Fixture.limits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let path = fixture.socketPath
        let box = try await onThread { () throws -> SessionBox in
            let session = try InspectorSession(socketPath: path, subscribe: true)
            // Once ping is answered, the agent has handled our hello and queued the snapshot.
            _ = try session.run(.ping)
            return SessionBox(session)
        }
        let (control, _, _) = try await fixture.client(subscribe: false)
        let count = 1500
        for index in 0..<count { fixture.receive(padded("m-\(index)")) }
        try await barrier(control, "b1")

        let problems = try await onThread { () throws -> [String] in
            var problems: [String] = []
            guard case .snapshot(0, _)? = try box.session.nextFrame(timeout: 20) else { return ["no initial snapshot"] }
            var expected = 1
            var gaps = 0
            while expected <= count {
                guard let frame = try box.session.nextFrame(timeout: 20) else { return problems + ["timeout"] }
                switch frame {
                case .event(let seq, _):
                    if seq != expected { problems.append("event \(seq) expected \(expected)") }
                    expected = seq + 1
                case .gap(let from, let to):
                    gaps += 1
                    if from != expected { problems.append("gap from \(from) expected \(expected)") }
                    guard case .snapshot(let seq, let state)? = try box.session.nextFrame(timeout: 20) else {
                        return problems + ["no snapshot after gap"]
                    }
                    if seq != to { problems.append("snapshot \(seq) after gap to \(to)") }
                    if state.messages.last?.message.correlationId != "m-\(to - 1)" { problems.append("snapshot \(seq) lacks m-\(to - 1)") }
                    expected = to + 1
                default:
                    problems.append("unexpected frame")
                }
            }
            if gaps == 0 { problems.append("no gap") }
            return problems
        }
        #expect(problems == [])
    }

    @Test("a client that sends commands and never reads cannot grow the host's memory; every command is answered once it reads")
    func commandsWithoutReading() async throws {
        var limits = AgentLimits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        let agent = try EmbeddedAgent(limits: limits)
        defer { agent.stop() }
        for index in 0..<20 { agent.host.receive(text: padded("m-\(index)")) }
        let client = agent.connect()
        client.sendHello(subscribe: false)
        let probe = agent.connect()
        probe.sendHello(subscribe: false)
        probe.send(#"{"kind":"command","id":"s","command":"snapshot"}"#)
        agent.run()
        _ = try client.readFrames()
        let snapshotBytes = try #require(try probe.readFrames().last { $0.kind == "snapshot" }).raw.count
        // Each `snapshot` command queues a whole snapshot; without back-pressure 2,000 of them
        // held 2,000 snapshots in the host (1.3 GB in one report).
        let count = 2000
        client.write(raw: (0..<count).map { #"{"kind":"command","id":"s\#($0)","command":"snapshot"}"# }.joined(separator: "\n") + "\n")
        agent.run()
        let bound = 256 * 1024 + limits.maxQueuedBytesPerClient + 2 * snapshotBytes
        #expect(agent.heldBytes <= bound, "held \(agent.heldBytes) bytes, bound \(bound)")
        probe.send(#"{"kind":"command","id":"p","command":"ping"}"#)
        agent.run()
        #expect(try probe.readFrames().map(\.id) == ["p"], "other clients are still served")

        // Once it reads, every command is answered, in order, and the bound holds throughout.
        var answered: [String] = []
        var largest = 0
        for _ in 0..<100_000 where answered.count < count {
            // Only the replies are decoded: the 2,000 snapshots between them are large.
            let replies = try client.readLines().filter { $0.starts(with: Array(#"{"kind":"reply""#.utf8)) }
            answered += try replies.compactMap { try Frame(raw: $0).id }
            agent.run()
            largest = max(largest, agent.heldBytes)
            await Task.yield()
        }
        #expect(answered == (0..<count).map { "s\($0)" })
        #expect(largest <= bound, "held \(largest) bytes, bound \(bound)")
    }

    @Test("a client that never reads is disconnected once it has taken nothing for longer than the stall limit; the host keeps working, the agent's memory stays bounded, and a reader that keeps up misses nothing")
    func stalledClient() async throws {
        var limits = AgentLimits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        limits.stalledClientSeconds = 3
        limits.maxLogBytes = 256 * 1024
        let agent = try EmbeddedAgent(limits: limits)
        defer { agent.stop() }
        let stalled = agent.connect()
        stalled.sendHello()
        let reader = agent.connect()
        reader.sendHello()
        agent.run()
        _ = try stalled.readFrames()
        let start = try #require(try reader.readFrames().last?.seq)
        let rounds = 1500
        let bound = limits.maxLogBytes + 2 * limits.maxQueuedBytesPerClient + 64 * 1024
        var largestHeld = 0
        var seqs: [Int] = []
        var ids: [String] = []
        var gaps = 0
        var stalledSince: Date?
        var droppedAt: Date?
        // The host works on, in batches 0.1 s apart; the reader reads after each batch.
        let batchSize = 20
        for batch in 0..<(rounds / batchSize) {
            for index in (batch * batchSize)..<((batch + 1) * batchSize) {
                agent.host.receive(text: padded("in-\(index)"))
                agent.host.send(event: "out.\(index)", data: ["pad": .string(String(repeating: "y", count: 1000))])
            }
            agent.run()
            largestHeld = max(largestHeld, agent.heldBytes)
            if stalledSince == nil, stalled.unreadByteCount > 0, agent.nextDeadline != nil { stalledSince = agent.now }
            for frame in try reader.readFrames() {
                if frame.kind == "gap" { gaps += 1 }
                guard frame.isEvent else { continue }
                seqs.append(frame.seq ?? -1)
                if frame.eventType == "traffic" { ids.append(frame.record?["message"]?["correlationId"]?.stringValue ?? "?") }
            }
            await Task.yield()
            agent.advanceTime(by: 0.1)
            if droppedAt == nil, stalled.isClosedByAgent { droppedAt = agent.now }
        }
        // The host did all its work: every send reached the journey while `stalled` read nothing.
        #expect(agent.journey.deliveries.count == rounds)
        #expect(gaps == 0)
        #expect(seqs == Array((start + 1)..<(start + 1 + seqs.count)))
        #expect(ids.count == rounds * 2)
        #expect(Array(ids.filter { $0.hasPrefix("in-") }) == (0..<rounds).map { "in-\($0)" })
        #expect(largestHeld <= bound, "held \(largestHeld) bytes, bound \(bound)")

        // The stalled client was dropped just after the limit (the first batch filled its
        // socket and its queue; it took nothing after that); the reader stays.
        let since = try #require(stalledSince)
        let dropped = try #require(droppedAt)
        let waited = dropped.timeIntervalSince(since)
        #expect(waited > limits.stalledClientSeconds && waited <= limits.stalledClientSeconds + 0.1 + 1e-9, "dropped after \(waited) s")
        #expect(agent.clientCount == 1)
        #expect(!reader.isClosedByAgent)

        // What the stalled client finds when it finally reads: some consecutive events, then the end.
        let leftovers = try stalled.readFrames()
        #expect(leftovers.first?.kind == "event")
        #expect(!leftovers.contains { $0.kind == "gap" })
        let stalledSeqs = leftovers.compactMap(\.seq)
        #expect(stalledSeqs == Array((start + 1)..<(start + 1 + stalledSeqs.count)))
        #expect(stalledSeqs.count < rounds * 2)

        reader.send(#"{"kind":"command","id":"p","command":"ping"}"#)
        agent.run()
        #expect(try reader.readFrames().first { $0.isReply }?.ok == true)
    }

    @Test("the stall limit counts from the last byte a client took: a slow reader is kept, a silent one goes just after the limit")
    func stallLimitCountsFromLastProgress() throws {
        var limits = AgentLimits()
        limits.stalledClientSeconds = 10
        let agent = try EmbeddedAgent(limits: limits)
        defer { agent.stop() }
        let slow = agent.connect(bufferBytes: 4 * 1024)
        let silent = agent.connect(bufferBytes: 4 * 1024)
        slow.sendHello()
        silent.sendHello()
        agent.run()
        for index in 0..<40 { agent.host.receive(text: padded("m-\(index)")) }
        agent.run()
        #expect(agent.nextDeadline == agent.now.addingTimeInterval(10))
        // The slow reader takes a few frames every 9 s; the silent one takes nothing.
        for _ in 0..<3 {
            agent.advanceTime(by: 9)
            _ = try slow.readFrames()
            agent.run()
        }
        #expect(!slow.isClosedByAgent)
        #expect(silent.isClosedByAgent, "27 s without taking a byte")
        // A millisecond before the limit a client is kept; a millisecond after it, it goes.
        let deadline = try #require(agent.nextDeadline)
        agent.advanceTime(by: deadline.timeIntervalSince(agent.now) - 0.001)
        #expect(!slow.isClosedByAgent)
        agent.advanceTime(by: 0.002)
        #expect(slow.isClosedByAgent)
    }
}

/// Carries a session (used by one thread at a time) between threads.
final class SessionBox: @unchecked Sendable {
    let session: InspectorSession
    init(_ session: InspectorSession) { self.session = session }
}
