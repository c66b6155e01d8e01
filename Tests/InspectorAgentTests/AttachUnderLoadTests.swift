import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
import ThreadSupport

/// What a client saw after attaching to a busy host, until it had seen enough live events (or
/// something went wrong).
private struct AttachReport: Sendable {
    var snapshots = 0
    var gaps = 0
    var liveEvents = 0
    var firstSnapshotMessages = 0
    var firstSnapshotBytes = 0
    var problems: [String] = []
}

/// Whether the traffic pump should keep going; set by the reader thread.
private final class StopFlag: Sendable {
    private let stopped = Locked(false)
    var isSet: Bool { stopped.current }
    func set() { stopped.withLock { $0 = true } }
}

/// An event message of about `size` bytes.
private func event(_ id: String, size: Int) -> String {
    let base = messageText(type: "event", action: "load", id: id, data: #"{"pad":""}"#)
    return messageText(type: "event", action: "load", id: id, data: #"{"pad":"\#(String(repeating: "x", count: max(0, size - base.utf8.count)))"}"#)
}

/// Issue 11, point 1: an inspector that attaches to a busy host must get one snapshot, then live
/// events, whatever the size of the log (up to the agent's caps) and whatever the traffic. Before
/// the fix, a snapshot larger than a client's queue limit turned every following event into a gap,
/// and each gap brought another full snapshot, for ever.
@MainActor
@Suite("Attaching to a busy host")
struct AttachUnderLoadTests {
    @Test("a 30 MiB log and 16 KB events at 20 a second: one snapshot, then live events, no gap")
    func largeLogSteadyTraffic() async throws {
        let report = try await attach(logMessages: 1_900, messageSize: 16_000, perTick: 1, tickMilliseconds: 50, wanted: 30)
        #expect(report.firstSnapshotBytes > AgentLimits().maxQueuedBytesPerClient, "the snapshot must be larger than a client's queue to reproduce the attack")
        #expect(report.firstSnapshotMessages >= 1_900, "the log, and perhaps some live messages from before the client connected")
        check(report, wanted: 30)
    }

    @Test("256-byte events at 10,000 a second onto a full log: one snapshot, then live events, no gap")
    func fullLogFastTraffic() async throws {
        let report = try await attach(logMessages: 10_000, messageSize: 256, perTick: 100, tickMilliseconds: 10, wanted: 2_000)
        #expect(report.firstSnapshotMessages == AgentLimits().maxLogMessages)
        check(report, wanted: 2_000)
    }

    @Test("a single message larger than a client's queue limit is delivered, not reported as falling behind")
    func oversizedMessageIsNoGap() async throws {
        var limits = Fixture.limits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        // Small events keep the queue non-empty; a 1 MiB message lands among them.
        for index in 0..<20 { fixture.receive(event("s-\(index)", size: 2_000)) }
        fixture.receive(event("big", size: 1024 * 1024))
        for index in 20..<40 { fixture.receive(event("s-\(index)", size: 2_000)) }
        var seen: [String] = []
        while seen.count < 41 {
            let frame = try await client.next()
            try #require(frame.kind == "event", "got \(frame.kind) after \(seen.count) events: the big message was taken for falling behind")
            seen.append(frame.record?["message"]?["correlationId"]?.stringValue ?? "?")
        }
        #expect(seen[20] == "big")
        #expect(seen.last == "s-39")
    }

    @Test("attaching to a busy host with a snapshot 8 times the event budget, read slowly while events keep coming: one snapshot, then every event, no gap")
    func slowAttachEmbedded() async throws {
        var limits = AgentLimits()
        limits.maxQueuedBytesPerClient = 64 * 1024
        let agent = try EmbeddedAgent(limits: limits)
        defer { agent.stop() }
        for index in 0..<256 { agent.host.receive(text: event("log-\(index)", size: 2_000)) }
        await Task.yield()
        let client = agent.connect(bufferBytes: 16 * 1024)
        client.sendHello()
        agent.run()
        // Each 50 ms an event arrives and the client reads what its socket holds (16 KiB): it
        // keeps up, but reading the snapshot takes it 33 ticks, during which the events wait in
        // their own budget (before issue 11's fix the snapshot filled it, and every event was a gap).
        var snapshots: [Int] = []
        var seqs: [Int] = []
        var gaps = 0
        var snapshotBytes = 0
        for tick in 0..<400 {
            agent.host.receive(text: event("live-\(tick)", size: 500))
            await Task.yield()  // the main actor is shared with other tests
            agent.advanceTime(by: 0.05)
            for line in try client.readLines() {
                if line.starts(with: Array(#"{"kind":"snapshot""#.utf8)) {
                    snapshotBytes = max(snapshotBytes, line.count)
                    snapshots.append(try Frame(raw: line).seq ?? -1)
                } else {
                    let frame = try Frame(raw: line)
                    if frame.kind == "gap" { gaps += 1 }
                    if frame.isEvent, let seq = frame.seq { seqs.append(seq) }
                }
            }
        }
        #expect(snapshotBytes > 8 * limits.maxQueuedBytesPerClient, "the snapshot must be far larger than the event budget")
        #expect(snapshots.count == 1)
        #expect(gaps == 0)
        let first = try #require(snapshots.first)
        #expect(seqs == Array((first + 1)..<(first + 1 + seqs.count)), "every event after the snapshot, in order")
        #expect(seqs.count == 400, "all 400 live events, the last one included")
        #expect(!client.isClosedByAgent)
    }

    private func check(_ report: AttachReport, wanted: Int) {
        #expect(report.problems == [])
        #expect(report.snapshots == 1, "a client attaching under load must get exactly one snapshot")
        #expect(report.gaps == 0)
        #expect(report.liveEvents >= wanted)
    }

    /// Fills the log, starts traffic on the main actor, attaches a real `InspectorSession` on a
    /// thread of its own, and reads until it has seen `wanted` live events after its snapshot, or
    /// a second snapshot or a gap (a failure), or a generous deadline.
    private func attach(logMessages: Int, messageSize: Int, perTick: Int, tickMilliseconds: Int, wanted: Int) async throws -> AttachReport {
        let fixture = try Fixture(limits: Fixture.limits())
        defer { fixture.stop() }
        for index in 0..<logMessages {
            fixture.receive(event("log-\(index)", size: messageSize))
            // The main actor is shared with every other test running in parallel: let them in.
            if index % 50 == 49 { await Task.yield() }
        }

        let stop = StopFlag()
        let pump = Task { @MainActor in
            var index = 0
            while !stop.isSet {
                for _ in 0..<perTick {
                    fixture.receive(event("live-\(index)", size: messageSize))
                    index += 1
                }
                try? await Task.sleep(for: .milliseconds(tickMilliseconds))
            }
        }
        defer { pump.cancel() }

        let path = fixture.socketPath
        let report = try await onThread { () throws -> AttachReport in
            defer { stop.set() }
            var report = AttachReport()
            let session = try InspectorSession(socketPath: path, subscribe: true, timeout: 60)
            defer { session.close() }
            var expected: Int?
            let deadline = Date().addingTimeInterval(120)
            while report.liveEvents < wanted, Date() < deadline {
                guard let frame = try session.nextFrame(timeout: 30) else {
                    report.problems.append("no frame for 30 s")
                    break
                }
                switch frame {
                case .snapshot(let seq, let state):
                    report.snapshots += 1
                    if report.snapshots == 1 {
                        report.firstSnapshotMessages = state.messages.count
                        report.firstSnapshotBytes = state.messages.reduce(0) { $0 + $1.bytes }
                    } else {
                        return report  // a second snapshot: the failure this test is about
                    }
                    expected = seq + 1
                case .event(let seq, _):
                    if let wantedSeq = expected, seq != wantedSeq { report.problems.append("event \(seq), expected \(wantedSeq)") }
                    expected = seq + 1
                    report.liveEvents += 1
                case .gap:
                    report.gaps += 1
                case .hello, .reply:
                    break
                }
            }
            return report
        }
        stop.set()
        _ = await pump.value
        return report
    }
}
