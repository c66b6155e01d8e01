import BridgeCore
import Foundation
import InspectorAgent
import InspectorClient
import InspectorProtocol
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
    @Test("a client that falls behind gets gap markers naming exactly the missed seqs, each followed by a snapshot at its end")
    func gapThenSnapshot() async throws {
        var limits = Fixture.limits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (slow, _, snapshot) = try await fixture.client()
        let (control, _, _) = try await fixture.client(subscribe: false)
        let start = try #require(snapshot?.seq)

        // Far more than the socket buffer plus the 64 KiB queue, while `slow` reads nothing.
        let count = 2000
        let last = start + count
        for index in 0..<count { fixture.receive(padded("m-\(index)")) }
        try await barrier(control, "b1")

        // Now read everything that was kept for `slow`. Every seq up to `last` must be accounted
        // for exactly once: delivered as an event, or inside a gap whose snapshot follows it.
        // (When the queue drains into the socket buffer while the host is still busy, one gap can
        // close and another open later, so there may be more than one.)
        var expected = start + 1
        var delivered = 0
        var gaps: [ClosedRange<Int>] = []
        var lastSnapshot: Frame?
        while expected <= last {
            let frame = try await slow.next()
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
                let resync = try await slow.next()
                #expect(resync.kind == "snapshot")
                try #require(resync.seq == to, "the snapshot after a gap is as of the gap's end")
                let messages = resync.json["state"]?["messages"]?.arrayValue
                #expect(messages?.last?["seq"]?.int == to)
                #expect(messages?.last?["message"]?["correlationId"]?.stringValue == "m-\(to - start - 1)")
                lastSnapshot = resync
                expected = to + 1
            default:
                Issue.record("unexpected frame \(frame)")
            }
        }
        #expect(expected == last + 1)
        #expect(!gaps.isEmpty)
        #expect(delivered > 0)
        #expect(delivered + gaps.reduce(0) { $0 + $1.count } == count)
        #expect(lastSnapshot != nil)

        // Live events continue right after.
        fixture.receive(padded("after"))
        let next = try await slow.next()
        #expect(next.seq == last + 1)
        #expect(next.record?["message"]?["correlationId"]?.stringValue == "after")
        #expect(try await slow.command("p", "ping").reply.ok == true)
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
        var limits = Fixture.limits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        for index in 0..<20 { fixture.receive(padded("m-\(index)")) }
        let (client, _, _) = try await fixture.client(subscribe: false)
        let (probe, _, _) = try await fixture.client(subscribe: false)
        try await probe.command("s", "snapshot")
        let snapshotBytes = try await probe.next().raw.count
        // Each `snapshot` command queues a whole snapshot; without back-pressure 2,000 of them
        // held 2,000 snapshots in the host (1.3 GB in one report).
        let count = 2000
        let frames = (0..<count).map { #"{"kind":"command","id":"s\#($0)","command":"snapshot"}"# }.joined(separator: "\n") + "\n"
        let writer = Task { try await onThread { try client.write(frames) } }
        var largest = 0
        for _ in 0..<50 {
            largest = max(largest, fixture.agent.heldBytes)
            try await Task.sleep(for: .milliseconds(10))
        }
        let bound = 256 * 1024 + limits.maxQueuedBytesPerClient + 2 * snapshotBytes
        #expect(largest <= bound, "held \(largest) bytes, bound \(bound)")
        #expect(try await probe.command("p", "ping").reply.ok == true, "other clients are still served")

        // Once it reads, every command is answered, in order.
        var answered: [String] = []
        while answered.count < count {
            let frame = try await client.next()
            if frame.isReply, let id = frame.id { answered.append(id) }
        }
        #expect(answered == (0..<count).map { "s\($0)" })
        try await writer.value
    }

    @Test("a client that never reads is disconnected; the host keeps working and the agent's memory stays bounded; a reader that keeps up misses nothing")
    func stalledClient() async throws {
        var limits = Fixture.limits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        // Long enough that a reader starved of the CPU for a moment on a busy machine is not taken
        // for a stalled one; the stalled client still goes well within `eventually`'s bound.
        limits.stalledClientSeconds = 3
        limits.maxLogBytes = 256 * 1024
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (stalled, _, _) = try await fixture.client()
        let (reader, _, readerSnapshot) = try await fixture.client()
        let start = try #require(readerSnapshot?.seq)
        let rounds = 1500
        let expectedTraffic = rounds * 2
        let progress = Progress()

        let reading = Task {
            try await onThread { () throws -> (seqs: [Int], ids: [String], gaps: Int) in
                var seqs: [Int] = []
                var ids: [String] = []
                var gaps = 0
                while ids.count < expectedTraffic {
                    let frame = try reader.nextBlocking()
                    if frame.kind == "gap" { gaps += 1 }
                    guard frame.isEvent else { continue }
                    seqs.append(frame.seq ?? -1)
                    if frame.eventType == "traffic" {
                        ids.append(frame.record?["message"]?["correlationId"]?.stringValue ?? "?")
                        progress.set(ids.count)
                    }
                }
                return (seqs, ids, gaps)
            }
        }

        // The host works on: receives and sends, in batches paced by the reader that keeps up.
        let bound = limits.maxLogBytes + 2 * limits.maxQueuedBytesPerClient + 64 * 1024
        var largestHeld = 0
        // A batch (about 2 × 20 frames of 1.3 KB) fits in the reader's 64 KiB queue by itself,
        // so the reader misses nothing however late its thread runs; the next batch waits until
        // it has read this one. (That a burst larger than the queue goes to the socket before
        // anything is dropped is pinned without threads in `AgentClientQueueTests`: with batches
        // of 50 this test depended on the reader's thread running during each burst.)
        let batchSize = 20
        for batch in 0..<(rounds / batchSize) {
            for index in (batch * batchSize)..<((batch + 1) * batchSize) {
                fixture.receive(padded("in-\(index)"))
                fixture.host.send(event: "out.\(index)", data: ["pad": .string(String(repeating: "y", count: 1000))])
            }
            largestHeld = max(largestHeld, fixture.agent.heldBytes)
            let target = (batch + 1) * batchSize * 2
            try #require(await eventually { progress.value >= target })
        }
        // The host did all its work: every send reached the journey while `stalled` read nothing.
        #expect(fixture.journey.deliveries.count == rounds)

        let (seqs, ids, gaps) = try await reading.value
        #expect(gaps == 0)
        #expect(seqs == Array((start + 1)..<(start + 1 + seqs.count)))
        #expect(ids.count == expectedTraffic)
        #expect(Array(ids.filter { $0.hasPrefix("in-") }) == (0..<rounds).map { "in-\($0)" })

        // The stalled client is dropped; the reader stays.
        #expect(await eventually { fixture.agent.clientCount == 1 })
        largestHeld = max(largestHeld, fixture.agent.heldBytes)
        #expect(largestHeld <= bound, "held \(largestHeld) bytes, bound \(bound)")

        // What the stalled client finds when it finally reads: some consecutive events, then the end.
        let leftovers = try await stalled.readUntilClosed()
        #expect(leftovers.first?.kind == "event")
        #expect(!leftovers.contains { $0.kind == "gap" })
        let stalledSeqs = leftovers.compactMap(\.seq)
        #expect(stalledSeqs == Array((start + 1)..<(start + 1 + stalledSeqs.count)))
        #expect(stalledSeqs.count < expectedTraffic)

        #expect(try await reader.command("p", "ping").reply.ok == true)
    }
}

/// Carries a session (used by one thread at a time) between threads.
final class SessionBox: @unchecked Sendable {
    let session: InspectorSession
    init(_ session: InspectorSession) { self.session = session }
}
