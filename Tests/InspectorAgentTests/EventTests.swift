import BridgeCore
import Foundation
import InspectorAgent
import Testing

@MainActor
@Suite("Live events")
struct EventTests {
    @Test("events carry consecutive sequence numbers starting right after the snapshot, each once, in order")
    func consecutiveSequenceNumbers() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, snapshot) = try await fixture.client()
        let start = try #require(snapshot?.seq)
        let count = 200
        for index in 0..<count {
            fixture.receive(messageText(type: "event", action: "tick", id: "e-\(index)"))
        }
        var seqs: [Int] = []
        var ids: [String] = []
        while ids.count < count {
            let frame = try await client.next()
            #expect(frame.kind == "event")
            seqs.append(try #require(frame.seq))
            if frame.eventType == "traffic", let id = frame.record?["message"]?["correlationId"]?.stringValue {
                ids.append(id)
            }
        }
        #expect(seqs == Array((start + 1)...(start + seqs.count)))
        #expect(ids == (0..<count).map { "e-\($0)" })
        // Every traffic record's own seq is the seq of the event that carried it.
        #expect(seqs.count == count)
    }

    @Test("the journey going away and coming back are journey events, and a later snapshot agrees")
    func journeyAttachment() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, snapshot) = try await fixture.client()
        #expect(snapshot?.json["state"]?["journeyAttached"]?.boolValue == true)
        fixture.host.detach()
        let detached = try await client.next()
        #expect(detached.eventType == "journey")
        #expect(detached.json["event"]?["attached"]?.boolValue == false)
        let (_, reply) = try await client.command("s1", "snapshot")
        #expect(reply.json["ok"]?.boolValue == true)
        #expect(try await client.next().json["state"]?["journeyAttached"]?.boolValue == false)
        fixture.host.attach(fixture.journey)
        let attached = try await client.next()
        #expect(attached.eventType == "journey" && attached.json["event"]?["attached"]?.boolValue == true)
    }

    @Test("a received message's exact bytes appear verbatim in the traffic frame (line breaks become spaces)")
    func rawBytesForwarded() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        // Odd spacing, unusual key order, escapes and non-ASCII: re-encoding would change all of it.
        let odd = #"{ "payload" : {"data":{"z":1.50,  "a":[1, 2,3], "s":"\u00e9\/x", "é":"ü"}, "action":"odd.spacing"},"type":"event",   "timestamp": 1732240000000, "correlationId":"raw-1","version":"1.0" }"#
        fixture.receive(odd)
        let frame = try await client.next()
        #expect(frame.eventType == "traffic")
        #expect(frame.text.contains(odd))
        #expect(frame.text.hasSuffix(#""message":"# + odd + "}}}"))
        let record = try #require(frame.record)
        #expect(record["seq"]?.int == frame.seq)
        #expect(record["direction"]?.stringValue == "received")
        #expect(record["origin"]?.stringValue == "journey")
        #expect(record["bytes"]?.int == odd.utf8.count)
        #expect(record["command"] == nil)

        // A message spread over several lines: the frame stays one line, line breaks become spaces.
        let multiLine = "{\n\"version\":\"1.0\",\r\n\"correlationId\":\"raw-2\",\"type\":\"event\",\"timestamp\":1,\n\"payload\":{\"action\":\"multi.line\"}\n}"
        fixture.receive(multiLine)
        let second = try await client.next()
        let flattened = multiLine.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        #expect(second.text.contains(flattened))
        #expect(second.record?["bytes"]?.int == multiLine.utf8.count)

        // The snapshot carries the same bytes.
        let (_, reply) = try await client.command("s", "snapshot")
        #expect(reply.ok == true)
        let snapshot = try await client.next()
        #expect(snapshot.kind == "snapshot")
        #expect(snapshot.text.contains(odd))
    }

    @Test("sent messages are forwarded with the exact bytes the journey received, marked origin host")
    func sentMessagesFromHost() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.host.send(event: "host.ready", data: ["version": "1.0.0"])
        let delivered = try #require(fixture.journey.deliveries.last)
        let frame = try await client.next()
        #expect(frame.eventType == "traffic")
        #expect(frame.record?["direction"]?.stringValue == "sent")
        #expect(frame.record?["origin"]?.stringValue == "host")
        #expect(frame.record?["deliveryError"] == nil)
        #expect(frame.text.contains(String(decoding: delivered.json, as: UTF8.self)))
    }

    @Test("a send that cannot be delivered carries deliveryError, and the lastError it causes points at it")
    func deliveryErrorAndCause() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.host.detach()
        #expect(try await client.next().eventType == "journey")
        fixture.host.send(event: "host.ping")
        let traffic = try await client.next()
        #expect(traffic.eventType == "traffic")
        #expect(traffic.record?["deliveryError"]?.stringValue?.hasPrefix("WebView not attached") == true)
        let error = try await client.next()
        #expect(error.eventType == "lastError")
        #expect(error.record?["cause"]?.int == traffic.seq)
        #expect(error.record?["text"] == traffic.record?["deliveryError"])
    }

    @Test("malformed input is reported with its text and reason; the lastError it causes has cause = its seq")
    func malformedInput() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let bad = #"{"version":"1.0","correlationId":"m-1","type":"request","timestamp":1}"#
        fixture.receive(bad)
        let malformed = try await client.next()
        #expect(malformed.eventType == "malformed")
        let record = try #require(malformed.record)
        #expect(record["seq"]?.int == malformed.seq)
        #expect(record["raw"]?.stringValue == bad)
        #expect(record["bytes"]?.int == bad.utf8.count)
        #expect(record["reason"]?.stringValue?.contains("payload") == true)
        #expect((record["time"]?.numberValue ?? 0) > 1_600_000_000_000)

        let error = try await client.next()
        #expect(error.eventType == "lastError")
        #expect(error.seq == (malformed.seq ?? 0) + 1)
        #expect(error.record?["cause"]?.int == malformed.seq)
        #expect(error.record?["text"]?.stringValue == fixture.host.lastError)

        // Invalid UTF-8 is shown with replacement characters; the byte count is of what arrived.
        fixture.host.receive(Data([0x7B, 0xFF, 0xFE, 0x7D]))
        let binary = try await client.next()
        #expect(binary.eventType == "malformed")
        #expect(binary.record?["raw"]?.stringValue == "{\u{FFFD}\u{FFFD}}")
        #expect(binary.record?["bytes"]?.int == 4)
        let second = try await client.next()
        #expect(second.record?["cause"]?.int == binary.seq)

        // Both stay in the snapshot: malformed list and error history.
        let (_, _) = try await client.command("s", "snapshot")
        let snapshot = try await client.next()
        #expect(snapshot.json["state"]?["malformed"]?.arrayValue?.count == 2)
        #expect(snapshot.json["state"]?["errorHistory"]?.arrayValue?.count == 2)
        #expect(snapshot.json["state"]?["lastError"] == second.record)
        #expect(snapshot.json["state"]?["counts"]?["malformed"]?.int == 2)
    }

    @Test("a response from the journey sets lastError whose cause is that message")
    func causeOfResponseError() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.receive(messageText(type: "response", action: "x", id: "stray"))
        let traffic = try await client.next()
        let error = try await client.next()
        #expect(traffic.eventType == "traffic")
        #expect(error.eventType == "lastError")
        #expect(error.record?["cause"]?.int == traffic.seq)
        #expect(error.record?["text"]?.stringValue?.contains("stray") == true)
    }

    @Test("a request nobody handles is announced with pendingAdded (exact bytes, arrival time) and leaves with pendingRemoved")
    func pendingEvents() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let text = messageText(action: "custom.ask", id: "p-1", data: #"{"b":2,"a":1}"#)
        fixture.receive(text)
        let traffic = try await client.next()
        let added = try await client.next()
        #expect(traffic.eventType == "traffic")
        #expect(added.eventType == "pendingAdded")
        #expect(added.seq == (traffic.seq ?? 0) + 1)
        #expect(added.record?["correlationId"]?.stringValue == "p-1")
        #expect(added.record?["action"]?.stringValue == "custom.ask")
        #expect((added.record?["since"]?.numberValue ?? 0) > 1_600_000_000_000)
        #expect(added.text.contains(#""message":"# + text))

        fixture.host.respond(to: "p-1", status: .success)
        let removed = try await client.next()
        #expect(removed.eventType == "pendingRemoved")
        #expect(removed.json["event"]?["correlationId"]?.stringValue == "p-1")
        let sent = try await client.next()
        #expect(sent.record?["direction"]?.stringValue == "sent")
        #expect(sent.record?["origin"]?.stringValue == "host")
    }

    @Test("slot and custom capability changes are events")
    func slotAndCapabilityEvents() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.makeSlotWaitForCompletion(.document)
        let handlerSet = try await client.next()
        #expect(handlerSet.eventType == "slot")
        #expect(handlerSet.json["event"]?["slot"]?["hasHandler"]?.boolValue == true)
        #expect(handlerSet.json["event"]?["slot"]?["supported"]?.boolValue == true)

        fixture.receive(messageText(action: "camera.document.capture", id: "cap-1"))
        let (_, active) = try await client.next { $0.eventType == "slot" }
        let slot = try #require(active.json["event"]?["slot"])
        #expect(slot["activeRequest"]?.stringValue == "cap-1")
        #expect(slot["activeAction"]?.stringValue == "camera.document.capture")
        #expect((slot["activeSince"]?.numberValue ?? 0) > 1_600_000_000_000)

        fixture.host.registerCustomCapability("device.info", version: "1.1") { _, responder in
            responder.respond(status: .success)
        }
        let capabilities = try await client.next()
        #expect(capabilities.eventType == "customCapabilities")
        #expect(capabilities.json["event"]?["capabilities"] == [["id": "device.info", "version": "1.1", "hasHandler": true, "shadowedBySlot": false]])
    }

    @Test("the agent's log is bounded: old messages are evicted and counted")
    func logEviction() async throws {
        var limits = Fixture.limits()
        limits.maxLogMessages = 5
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        for index in 0..<8 {
            fixture.receive(messageText(type: "event", action: "tick", id: "e-\(index)"))
        }
        let (_, _) = try await client.command("s", "snapshot")
        let (_, snapshot) = try await client.next { $0.kind == "snapshot" }
        let state = try #require(snapshot.json["state"])
        #expect(state["messages"]?.arrayValue?.map { $0["message"]?["correlationId"]?.stringValue } == ["e-3", "e-4", "e-5", "e-6", "e-7"])
        #expect(state["counts"]?["received"]?.int == 8)
        #expect(state["counts"]?["evicted"]?.int == 3)
    }
}
