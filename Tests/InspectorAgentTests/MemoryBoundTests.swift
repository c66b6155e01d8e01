import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorProtocol
import TestSupport
import Testing

/// Issue 11, point 5: the memory the agent holds stays inside the bound docs/inspector-protocol.md
/// states (section 9, `AgentLimits.heldBytesBound`), whatever the clients and the journey send.
/// Before the fix the bound left out each client's unfinished input line, and the agent kept a
/// record of every pending request, however many.
@MainActor
@Suite("Memory bound")
struct MemoryBoundTests {
    @Test("clients sending unfinished lines and a journey leaking pending requests: held bytes counted and within the bound")
    func partialLinesAndPendingFlood() async throws {
        var limits = Fixture.limits()
        limits.maxClientFrameBytes = 1024 * 1024
        // Lower than the defaults (10,000 each) only so that this test's raw client, which decodes
        // every frame with JSONDecoder, reads the snapshots quickly; the mechanism is the same.
        limits.maxPendingRecords = 500
        limits.maxLogMessages = 200
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }

        // Fifteen clients each send almost a whole frame and never its newline.
        let partial = limits.maxClientFrameBytes - 1
        var writers: [RawClient] = []
        defer { for client in writers { client.close() } }
        for _ in 0..<(limits.maxClients - 1) {
            let client = try RawClient.connect(fixture.socketPath)
            try client.write(Array(#"{"kind":"hello","protocol":1,"client":""#.utf8) + [UInt8](repeating: 0x61, count: partial - 40))
            writers.append(client)
        }
        let agent = fixture.agent
        let unfinished = (limits.maxClients - 1) * (partial - 40)
        #expect(await eventually { agent.heldBytes >= unfinished }, "held: \(agent.heldBytes), unfinished lines: \(unfinished)")

        // The journey leaves far more requests pending than the agent keeps records of.
        let flood = 3 * limits.maxPendingRecords
        for index in 0..<flood {
            fixture.receive(messageText(action: "leak.action", id: "p-\(index)"))
            if index % 50 == 49 { await Task.yield() }  // other tests share the main actor
        }
        #expect(fixture.host.pendingRequests.count == flood)

        let (observer, _, snapshot) = try await fixture.client()
        let state = try #require(snapshot?.json["state"])
        #expect(state["pending"]?.arrayValue?.count == limits.maxPendingRecords)
        #expect(state["pending"]?.arrayValue?.first?["correlationId"]?.stringValue == "p-0", "the oldest are kept")
        #expect(state["counts"]?["pendingOmitted"]?.int == flood - limits.maxPendingRecords)

        let held = agent.heldBytes
        #expect(held >= unfinished)
        #expect(held <= limits.heldBytesBound, "held \(held) bytes, bound \(limits.heldBytesBound)")

        // A request left out of the records can still be answered, and the count follows.
        let reply = try await observer.command("r", "respond", args: #"{"correlationId":"p-\#(flood - 1)","status":"success"}"#).reply
        #expect(reply.ok == true)
        _ = try await observer.command("s", "snapshot")
        let next = try await observer.next(until: { $0.kind == "snapshot" }).match
        #expect(next.json["state"]?["counts"]?["pendingOmitted"]?.int == flood - limits.maxPendingRecords - 1)
        // Answering a kept one removes its record.
        let kept = try await observer.command("r2", "respond", args: #"{"correlationId":"p-0","status":"success"}"#).reply
        #expect(kept.ok == true)
        _ = try await observer.command("s2", "snapshot")
        let last = try await observer.next(until: { $0.kind == "snapshot" }).match
        #expect(last.json["state"]?["pending"]?.arrayValue?.first?["correlationId"]?.stringValue == "p-1")
        #expect(last.json["state"]?["pending"]?.arrayValue?.count == limits.maxPendingRecords - 1)
    }

    @Test("the log never holds more than its byte budget, even for one message larger than the budget")
    func oversizedLogRecordIsNotKept() async throws {
        var limits = Fixture.limits()
        limits.maxLogBytes = 64 * 1024
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        fixture.receive(messageText(type: "event", action: "small", id: "s-1"))
        fixture.receive(messageText(type: "event", action: "big", id: "b-1", data: #"{"pad":"\#(String(repeating: "x", count: 100_000))"}"#))
        let (_, _, snapshot) = try await fixture.client()
        let messages = try #require(snapshot?.json["state"]?["messages"]?.arrayValue)
        #expect(messages.map { $0["message"]?["correlationId"]?.stringValue } == ["s-1"], "a record larger than the whole log budget is not kept, and pushes nothing out")
        #expect(snapshot?.json["state"]?["counts"]?["evicted"]?.int == 1)
        #expect(fixture.agent.heldBytes <= limits.heldBytesBound)
    }

    @Test("a stopped agent frees its loop and its copy of the state (found by LeakSanitizer)")
    func stoppedAgentIsFreed() async throws {
        weak var loop: AgentLoop?
        do {
            let fixture = try Fixture()
            fixture.receive(messageText(type: "event", action: "fill", id: "f-1"))
            let (client, _, _) = try await fixture.client()
            loop = fixture.agent.loop
            client.close()
            fixture.stop()
        }
        #expect(await eventually { loop == nil }, "the agent's loop (and the log it holds) outlived stop()")
    }

    @Test("maxLogBytes above the largest log is used as the largest log, so a snapshot fits in one frame")
    func logBudgetIsCapped() {
        var limits = AgentLimits()
        #expect(limits.effectiveMaxLogBytes == limits.maxLogBytes)
        limits.maxLogBytes = 100 * 1024 * 1024
        #expect(limits.effectiveMaxLogBytes == AgentLimits.largestLogBytes)
        limits.maxLogBytes = -1
        #expect(limits.effectiveMaxLogBytes == 0)
    }

    @Test("error texts and malformed inputs are kept within their record sizes")
    func longTextsAreCut() {
        let long = String(repeating: "é", count: 20_000)
        let cut = AgentState.shortened(long)
        #expect(cut.utf8.count <= AgentState.errorTextLimit)
        #expect(cut.hasSuffix("more bytes not kept)"))
        #expect(AgentState.shortened("short") == "short")

        let controls = Data(repeating: 0x01, count: 200_000)
        let record = AgentState.encodeMalformed(MalformedInput(raw: controls, reason: "bad", time: Date()), seq: 1)
        #expect(record.count <= AgentState.malformedRecordLimit)
    }
}
