import AgentTesting
import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorClient
import InspectorProtocol
import Testing

/// Issue 27, trap 4: what an inspector's `inject` makes is the inspector's, not the app's, even
/// when the text does not decode. Before, the malformed record of `inject --raw` had no origin,
/// so a client counted it (and the lastError it caused) against the app.
@MainActor
@Suite("Injected text that fails to decode is the inspector's")
struct InjectedInputOriginTests {
    @Test("inject --raw: the malformed record carries origin inspector and the command; the client marks it and counts it nowhere, nor the lastError it caused")
    func rawInjectIsTheInspectors() async throws {
        let agent = try EmbeddedAgent()
        defer { agent.stop() }
        let client = agent.connect()
        client.sendHello()
        agent.run()
        var live = LiveState()
        for frame in try client.readFrames() { live.apply(try AgentFrame.decode(Data(frame.raw))) }

        // The journey's own bad input first: that one is the app's (the journey's) problem.
        agent.receive("{oops")
        for frame in try client.readFrames() { live.apply(try AgentFrame.decode(Data(frame.raw))) }
        let frames = try await agent.perform(#""inject","args":{"raw":"{not json"}"#, id: "c7", client: client)
        for frame in frames + (try client.readFrames()) { live.apply(try AgentFrame.decode(Data(frame.raw))) }

        let records = frames.filter { $0.eventType == "malformed" }
        #expect(records.count == 1)
        #expect(records.first?.record?["origin"]?.stringValue == "inspector")
        #expect(records.first?.record?["command"]?.stringValue == "c7")
        #expect(agent.host.lastError?.hasPrefix("Failed to decode message") == true)

        let rows = live.log.indices.filter { live.log[$0].kind == .malformed }
        #expect(rows.count == 2)
        let journeyRow = try #require(rows.first)
        let injectedRow = try #require(rows.last)
        #expect(live.log[journeyRow].origin == .journey)
        #expect(live.log[injectedRow].origin == .inspector)
        #expect(live.log[injectedRow].command == "c7")
        #expect(live.lintedRows == [journeyRow], "only the journey's input counts")
        #expect(live.inspectorMadeLintRows == [injectedRow])
        #expect(live.lintReasons[injectedRow]?.hasSuffix(LiveState.notCountedNote) == true)
        // lastError now comes from the inspector's input: attributed to it.
        let error = try #require(live.lastError)
        #expect(live.isInspectorMade(error))
        #expect(live.errorHistory.filter { $0.text != nil }.map { live.isInspectorMade($0) } == [false, true])

        // A late client's snapshot carries the same origin.
        let late = agent.connect()
        late.sendHello()
        agent.run()
        let snapshot = try #require(try late.readFrames().first { $0.kind == "snapshot" })
        #expect(snapshot.json["state"]?["malformed"]?[1]?["origin"]?.stringValue == "inspector")
        #expect(snapshot.json["state"]?["malformed"]?[0]?["origin"] == nil, "the journey's input has no origin, as before")
    }
}
