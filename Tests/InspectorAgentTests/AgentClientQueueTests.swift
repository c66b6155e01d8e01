import Foundation
@testable import InspectorAgent
import SocketSupport
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The event budget of one client, over a real socket pair and without the agent's thread, so
/// nothing here depends on scheduling: docs/inspector-protocol.md §6.1.
@Suite("A client's event queue")
struct AgentClientQueueTests {
    /// A connected pair: the agent's end (non-blocking, as the agent's loop has it) and the peer's.
    private func pair() throws -> (client: AgentClient, agentSide: UnixConnection, peer: UnixConnection) {
        let (agentSide, peer) = try unixConnectionPair()
        let client = AgentClient(id: 1, output: agentSide, now: Date(), handshakeDeadline: Date(), maxFrameBytes: 1 << 20)
        client.phase = .ready(subscribed: true)
        return (client, agentSide, peer)
    }

    private func event(_ seq: Int, size: Int = 1000) -> [UInt8] {
        Array("{\"seq\":\(seq),\"pad\":\"\(String(repeating: "x", count: size))\"}\n".utf8)
    }

    @Test("a burst larger than the budget is handed to the socket before anything is dropped")
    func burstGoesToTheSocketFirst() throws {
        let (client, agentSide, peer) = try pair()
        defer { agentSide.close(); peer.close() }
        let limit = 4 * 1024
        // 16 KiB of events in one pass, four times the budget, with nothing written in between:
        // an empty socket takes them, so a reader that keeps up misses none.
        for seq in 1...16 { client.enqueueEvent(event(seq), seq: seq, limit: limit, now: Date()) }
        #expect(client.gap == nil)
        #expect(client.queuedEventBytes <= limit)
    }

    @Test("a peer that reads nothing: the socket fills, then the budget, then events fall into the gap, in order")
    func fullSocketThenGap() throws {
        let (client, agentSide, peer) = try pair()
        defer { agentSide.close(); peer.close() }
        let limit = 4 * 1024
        var seq = 0
        while client.gap == nil && seq < 100_000 {
            seq += 1
            client.enqueueEvent(event(seq), seq: seq, limit: limit, now: Date())
        }
        let firstMissed = try #require(client.gap?.lowerBound)
        #expect(firstMissed == seq)
        #expect(client.queuedEventBytes <= limit)
        #expect(client.queuedEventBytes + 1002 > limit, "the budget was full when the first event was dropped")
        // Later events widen the same gap; none is queued out of order.
        let queuedBefore = client.queuedBytes
        for next in (seq + 1)...(seq + 5) { client.enqueueEvent(event(next), seq: next, limit: limit, now: Date()) }
        #expect(client.gap == firstMissed...(seq + 5))
        #expect(client.queuedBytes == queuedBefore)
    }
}
