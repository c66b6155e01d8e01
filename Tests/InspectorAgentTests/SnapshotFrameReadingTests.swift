import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorProtocol
import Testing

/// The snapshots the agent really writes are read in one pass (`SnapshotFrameReader`, issue 30)
/// to exactly what the full decoding (`AgentFrame.readParsingWhole`) gives: every field of the
/// state, and each record's message bytes as the agent spliced them in.
@MainActor
@Suite("The agent's snapshots, read in one pass")
struct SnapshotFrameReadingTests {
    /// `state` encoded with sorted keys, and the message bytes of its log and pending requests.
    static func comparable(_ frame: AgentFrame) throws -> (Int, String, [Data?], [Data?])? {
        guard case .snapshot(let seq, let state) = frame else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (seq, String(decoding: try encoder.encode(state), as: UTF8.self), state.messages.map(\.messageJSON), state.pending.map(\.messageJSON))
    }

    @Test("a snapshot of a busy host: held, faulted, malformed, truncated and exact-number messages")
    func busyHostSnapshot() async throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let owner = agent.connect()
        owner.sendHello()
        agent.run()
        _ = try owner.readFrames()
        _ = try await agent.perform(#""addFault","args":{"filter":"action:device.info","effect":{"kind":"drop"}}"#, id: "c1", client: owner)
        _ = try await agent.perform(#""addBreakpoint","args":{"filter":"action:hold.me dir:in","holdSeconds":30}"#, id: "c2", client: owner)
        let data = [
            #"{"n":9007199254740993,"f":1.0,"e":1E-2,"neg":-0}"#,
            #"{"text":"caf\u00e9 \ud83d\ude00 \"q\" \/ tab\t","raw":"é😀"}"#,
            #"{"deep":[[1,[2,{"a":null,"b":[true,false]}]],{}],"empty":{},"list":[]}"#,
            #"{ "spaced" : [ 1 , 2 ] , "k" : "v" }"#,
        ]
        for (index, text) in data.enumerated() {
            agent.receive(messageText(action: "nfc.read", id: "r-\(index)", data: text))
            agent.receive(messageText(type: "event", action: "journey.step", id: "e-\(index)", data: text))
        }
        agent.receive(messageText(action: "device.info", id: "faulted"))
        agent.receive(messageText(action: "hold.me", id: "held"))
        agent.receive("{not json")
        agent.receive(messageText(action: "big.upload", id: "big", data: #"{"blob":""# + String(repeating: "x", count: 300_000) + #""}"#))
        _ = try owner.readFrames()

        // Room for the whole snapshot (the large request is in it).
        let late = agent.connect(bufferBytes: 8 << 20)
        late.sendHello()
        agent.run()
        let lines = try late.readLines()
        let line = Data(try #require(lines.first { $0.starts(with: Array(#"{"kind":"snapshot""#.utf8)) }))
        let fast = try #require(SnapshotFrameReader.frame(in: line), "the agent's snapshot is read on the fast path")
        let read = try Self.comparable(AgentFrame.read(line))
        let full = try Self.comparable(AgentFrame.readParsingWhole(line))
        let mine = try #require(try Self.comparable(fast))
        #expect(read.map { "\($0)" } == full.map { "\($0)" })
        #expect("\(mine)" == full.map { "\($0)" })

        guard case .snapshot(_, let state) = fast else { return }
        #expect(state.messages.count >= 10)
        #expect(state.pending.count >= 5)
        #expect(state.pending.contains { $0.truncated == true })
        #expect(state.malformed.count == 1)
        #expect(state.faults?.count == 1)
        #expect(state.breakpoints?.count == 1)
        #expect(state.held?.count == 1)
        // The exact digits, as the journey wrote them.
        let texts = state.messages.compactMap(\.messageJSON).map { String(decoding: $0, as: UTF8.self) }
        #expect(texts.contains { $0.contains("9007199254740993") && $0.contains("1.0") })
        #expect(state.messages.allSatisfy { $0.messageJSON != nil } && state.pending.allSatisfy { $0.messageJSON != nil })
    }

    @Test("a snapshot of a fresh host, and of one whose log was cleared")
    func quietHostSnapshots() async throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        var lines: [Data] = []
        let client = agent.connect()
        client.sendHello()
        agent.run()
        lines += try client.readLines().filter { $0.starts(with: Array(#"{"kind":"snapshot""#.utf8)) }.map { Data($0) }
        agent.receive(messageText(type: "event", action: "journey.step", id: "e-1"))
        _ = try await agent.perform(#""clearLog""#, id: "c1", client: client)
        let late = agent.connect()
        late.sendHello()
        agent.run()
        lines += try late.readLines().filter { $0.starts(with: Array(#"{"kind":"snapshot""#.utf8)) }.map { Data($0) }
        #expect(lines.count == 2)
        for line in lines {
            let fast = try #require(SnapshotFrameReader.frame(in: line))
            #expect(try Self.comparable(fast).map { "\($0)" } == Self.comparable(AgentFrame.readParsingWhole(line)).map { "\($0)" })
            guard case .snapshot(_, let state) = fast else { continue }
            #expect(state.messages.isEmpty && state.pending.isEmpty)
        }
    }
}
