import AgentTesting
import Foundation
@testable import InspectorAgent
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// The largest event backlog a client's outbox had (what the benchmarks report as the margin to
/// a gap) must be exactly the most ``ClientOutbox/queuedEventBytes`` has been since the last
/// reset, however events, control frames, partial writes, gaps and resets interleave; and the
/// agent must keep it across its passes, after the client leaves, and start it again when asked.
@Suite("The largest event backlog of a client")
struct EventBacklogHighWaterTests {
    @Test("the outbox's high-water mark follows a model of every queued-event figure it went through")
    func followsTheQueuedEventBytes() {
        var random = SeededRandom(seed: 3030)
        var gaps = 0
        for round in 0..<24 {
            let limit = [1, 500, 4_096, 70_000][round % 4]
            let frames = ClientOutboxWritingTests.frames(&random, count: 60)
            let output = ClientOutboxWritingTests.ScriptedOutput(script: ClientOutboxWritingTests.script(&random, count: 2_000), gathers: round % 2 == 0)
            var outbox = ClientOutbox(now: Date())
            let now = Date()
            var model = 0
            for (seq, frame) in frames.enumerated() {
                switch random.next() % 5 {
                case 0:
                    outbox.enqueue(frame, now: now)
                case 1:
                    outbox.resetEventBacklogHighWater()
                    model = outbox.queuedEventBytes
                default:
                    if !outbox.enqueueEventWithoutWriting(frame, seq: seq, limit: limit, now: now) {
                        outbox.enqueueEventAfterWriting(frame, seq: seq, limit: limit, now: now, output: output)
                    }
                }
                model = max(model, outbox.queuedEventBytes)
                if outbox.gap != nil { gaps += 1 }
                #expect(outbox.eventBacklogHighWater == model, "round \(round), frame \(seq)")
                #expect(outbox.eventBacklogHighWater <= limit, "round \(round): the budget bounds the backlog")
                if random.next() % 3 == 0 { _ = outbox.flush(to: output, now: now) }
                #expect(outbox.eventBacklogHighWater == model, "round \(round), after a flush")
            }
        }
        #expect(gaps > 0, "small budgets drop events: the mark must hold through gaps too")
    }

    @Test("a reset starts again from what is queued, not from zero")
    func resetKeepsWhatIsQueued() {
        var outbox = ClientOutbox(now: Date())
        let now = Date()
        let first = outbox.enqueueEventWithoutWriting([UInt8](repeating: 1, count: 300)[...], seq: 1, limit: 1_000, now: now)
        let second = outbox.enqueueEventWithoutWriting([UInt8](repeating: 1, count: 200)[...], seq: 2, limit: 1_000, now: now)
        #expect(first && second)
        #expect(outbox.eventBacklogHighWater == 500)
        // The first 300 bytes go out, then the output is full: the second event stays queued.
        let output = ClientOutboxWritingTests.ScriptedOutput(script: [.take(300), .full], gathers: true)
        let stayed = outbox.flush(to: output, now: now)
        #expect(stayed)
        #expect(outbox.eventBacklogHighWater == 500)
        outbox.resetEventBacklogHighWater()
        #expect(outbox.eventBacklogHighWater == 200, "a reset starts from the 200 bytes still queued")
        outbox.enqueue([UInt8](repeating: 2, count: 900)[...], now: now)
        #expect(outbox.eventBacklogHighWater == 200, "control frames are outside the event budget")
        // Everything written: a reset now starts from zero.
        let drained = outbox.flush(to: ClientOutboxWritingTests.ScriptedOutput(script: [], gathers: true), now: now)
        #expect(drained)
        outbox.resetEventBacklogHighWater()
        #expect(outbox.eventBacklogHighWater == 0)
    }

    @MainActor
    @Test("the agent reports a reader's backlog, keeps it after the client leaves, and starts again when asked")
    func agentReportsAndResets() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let agent = fixture.agent
        let budget = Fixture.limits().maxQueuedBytesPerClient
        let path = fixture.socketPath
        let box = try await onThread { () throws -> SessionBox in
            let session = try InspectorSession(socketPath: path, subscribe: true)
            _ = try session.run(.ping)
            return SessionBox(session)
        }
        defer { box.session.close() }
        // About 2 MiB of events that the client does not read yet: past any socket buffer,
        // within the budget (no gap).
        let count = 2_000
        let pad = String(repeating: "x", count: 1_000)
        for index in 0..<count {
            fixture.receive(Fixture.messageText(type: "event", action: "load", id: "m-\(index)", data: #"{"pad":"\#(pad)"}"#))
            if index % 50 == 49 { await Task.yield() }
        }
        #expect(await eventually(timeout: .seconds(120)) { agent.eventBacklogHighWater >= 1 << 20 }, "\(agent.eventBacklogHighWater) bytes")
        let high = agent.eventBacklogHighWater
        #expect(high <= budget)

        // The client reads everything; then, with nothing queued, a reset starts again near zero.
        let read = try await onThread { () throws -> Int in
            var events = 0
            while events < count {
                guard let frame = try box.session.nextFrame(timeout: 30) else { break }
                if case .event = frame { events += 1 }
            }
            return events
        }
        #expect(read == count)
        agent.resetEventBacklogHighWater()
        fixture.receive(Fixture.messageText(type: "event", action: "load", id: "after", data: "{}"))
        let after = try await onThread { () throws -> Bool in
            while let frame = try box.session.nextFrame(timeout: 30) {
                if case .event(_, .traffic(let traffic)) = frame, traffic.message.correlationId == "after" { return true }
            }
            return false
        }
        #expect(after)
        agent.stop()
        // Final once stopped, and kept although the client is gone.
        #expect(agent.eventBacklogHighWater < 64 * 1024, "after the reset: \(agent.eventBacklogHighWater), before: \(high)")
        #expect(agent.clientCount == 0)
    }
}
