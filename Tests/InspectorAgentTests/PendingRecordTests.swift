import BridgeCore
import Foundation
import InspectorAgent
import TestSupport
import Testing

/// What a pending record says a request is: the request the host routed into `pendingRequests`,
/// never another message that merely shares its correlation id. A script answering from
/// `wait-for --json` acts on this record.
@MainActor
@Suite("Pending records")
struct PendingRecordTests {
    @Test("A held request released after a refused duplicate with its id is recorded as itself, not as the duplicate")
    func duplicateWhileHeldIsNotThePendingRecord() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"action:nfc.read"}"#).reply.ok == true)
        fixture.receive(messageText(action: "nfc.read", id: "x1", data: #"{"tag":"A"}"#))
        _ = try await client.next { $0.eventType == "held" }
        // The journey sends another request with the held one's id: refused as a duplicate.
        fixture.receive(messageText(action: "wallet.pay", id: "x1", data: #"{"forged":"B","amount":999}"#))
        _ = try await client.next { $0.eventType == "lastError" }
        #expect(fixture.host.lastError?.contains("Duplicate correlationId 'x1'") == true)

        let (events, reply) = try await client.command("c2", "release", args: #"{"id":"h1"}"#)
        #expect(reply.ok == true, "\(reply)")
        let added = try await pendingAdded(in: events, or: client)
        let message = added.record?["message"]
        #expect(message?["payload"]?["action"]?.stringValue == "nfc.read")
        #expect(message?["payload"]?["data"]?["tag"]?.stringValue == "A")
        #expect(message?["payload"]?["data"]?["forged"] == nil)
        #expect(added.record?["action"]?.stringValue == "nfc.read")

        // A client attaching now gets the same record in its snapshot.
        let (_, _, snapshot) = try await fixture.client()
        let pending = snapshot?.json["state"]?["pending"]?[0]
        #expect(pending?["message"]?["payload"]?["action"]?.stringValue == "nfc.read")
        #expect(pending?["message"]?["payload"]?["data"]?["forged"] == nil)
    }

    @Test("A held request released with an edit is recorded pending as edited, the data the host routed")
    func editedReleaseIsThePendingRecord() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        #expect(try await client.command("c1", "addBreakpoint", args: #"{"filter":"action:nfc.read"}"#).reply.ok == true)
        fixture.receive(messageText(action: "nfc.read", id: "x1", data: #"{"tag":"original"}"#))
        _ = try await client.next { $0.eventType == "held" }
        let edited = #"{"id":"h1","message":{"version":"1.0","correlationId":"x1","type":"request","timestamp":1,"payload":{"action":"nfc.read","data":{"tag":"edited"}}}}"#
        let (events, reply) = try await client.command("c2", "release", args: edited)
        #expect(reply.ok == true, "\(reply)")
        let added = try await pendingAdded(in: events, or: client)
        #expect(added.record?["message"]?["payload"]?["data"]?["tag"]?.stringValue == "edited")
        #expect(fixture.host.pendingRequests.first?.payload.data?["tag"] == .string("edited"))
    }

    @Test("A request that goes straight to pendingRequests keeps the journey's exact bytes in its record")
    func unheldRequestKeepsExactBytes() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        // Keys in the journey's own order, and a number a double cannot hold.
        let text = #"{"payload":{"data":{"n":9007199254740993},"action":"nfc.read"},"type":"request","correlationId":"x2","version":"1.0","timestamp":1}"#
        fixture.receive(text)
        let added = try await client.next { $0.eventType == "pendingAdded" }.match
        #expect(added.text.contains(#""message":"# + text))
    }

    /// The `pendingAdded` event among `frames` (those before a reply), or the next one `client` gets.
    func pendingAdded(in frames: [Frame], or client: RawClient) async throws -> Frame {
        if let frame = frames.first(where: { $0.eventType == "pendingAdded" }) { return frame }
        return try await client.next { $0.eventType == "pendingAdded" }.match
    }

    @Test("Past maxPendingRecords, the snapshot counts the requests it leaves out by action, and forgets each one answered")
    func omittedPendingAreCountedByAction() async throws {
        var limits = Fixture.limits()
        limits.maxPendingRecords = 2
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        for index in 0..<2 { fixture.receive(messageText(action: "wallet.addPass", id: "w-\(index)")) }
        fixture.receive(messageText(action: "device.infoo", id: "t-1"))
        fixture.receive(messageText(action: "device.infoo", id: "t-2"))
        fixture.receive(messageText(action: "nfc.reed", id: "t-3"))
        #expect(fixture.host.pendingRequests.count == 5)
        let (_, _, snapshot) = try await fixture.client()
        let counts = snapshot?.json["state"]?["counts"]
        #expect(counts?["pendingOmitted"]?.int == 3)
        #expect(counts?["pendingOmittedActions"]?["device.infoo"]?.int == 2)
        #expect(counts?["pendingOmittedActions"]?["nfc.reed"]?.int == 1)

        try fixture.host.respondToPendingRequest("t-3", status: .success)
        try fixture.host.respondToPendingRequest("t-1", status: .success)
        let (_, _, later) = try await fixture.client()
        let after = later?.json["state"]?["counts"]
        #expect(after?["pendingOmitted"]?.int == 1)
        #expect(after?["pendingOmittedActions"]?["device.infoo"]?.int == 1)
        #expect(after?["pendingOmittedActions"]?["nfc.reed"] == nil)
        try fixture.host.respondToPendingRequest("t-2", status: .success)
        let (_, _, last) = try await fixture.client()
        #expect(last?.json["state"]?["counts"]?["pendingOmitted"] == nil)
        #expect(last?.json["state"]?["counts"]?["pendingOmittedActions"] == nil)
    }
}
