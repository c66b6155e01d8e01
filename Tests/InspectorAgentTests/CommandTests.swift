import BridgeCore
import Foundation
import InspectorAgent
import TestSupport
import Testing

@MainActor
@Suite("Commands")
struct CommandTests {
    @Test("respond answers a pending request through the host; the reply carries the exact message sent")
    func respond() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.receive(messageText(action: "custom.ask", id: "p-1"))
        _ = try await client.next { $0.eventType == "pendingAdded" }

        let args = #"{"correlationId":"p-1","status":"error","data":{"n":1},"error":{"code":"NOPE","message":"no","recoverable":false}}"#
        let (before, reply) = try await client.command("c1", "respond", args: args)
        #expect(reply.ok == true)
        #expect(reply.json["result"] == ["correlationId": "p-1"])

        // What the journey got.
        let response = try #require(fixture.delivered.last)
        #expect(response.correlationId == "p-1")
        #expect(response.type == .response)
        #expect(response.payload.action == "custom.ask")
        #expect(response.payload.status == .error)
        #expect(response.payload.data == ["n": 1])
        #expect(response.payload.error == BridgeErrorPayload(code: "NOPE", message: "no", recoverable: false))
        #expect(fixture.host.pendingRequests.isEmpty)

        // The events it caused, marked as made by this command.
        #expect(before.map(\.eventType) == ["pendingRemoved", "traffic"])
        let traffic = before[1]
        #expect(traffic.record?["direction"]?.stringValue == "sent")
        #expect(traffic.record?["origin"]?.stringValue == "inspector")
        #expect(traffic.record?["command"]?.stringValue == "c1")
        let json = String(decoding: try #require(fixture.journey.deliveries.last).json, as: UTF8.self)
        #expect(traffic.text.contains(json))
        // The reply's `sent` holds the same bytes.
        #expect(reply.json["sent"]?.arrayValue?.count == 1)
        #expect(reply.text.contains(#""sent":["# + json + "]"))
        #expect(reply.json["sent"]?[0]?["correlationId"]?.stringValue == "p-1")
    }

    @Test("respond naming a reply rule marks the response's traffic record with that rule")
    func respondWithRule() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.receive(messageText(action: "custom.ask", id: "p-1"))
        _ = try await client.next { $0.eventType == "pendingAdded" }
        let (before, reply) = try await client.command("c1", "respond", args: #"{"correlationId":"p-1","status":"success","rule":"auto-ok"}"#)
        #expect(reply.ok == true)
        let traffic = try #require(before.first { $0.eventType == "traffic" })
        #expect(traffic.record?["rule"]?.stringValue == "auto-ok")
        #expect(traffic.record?["command"]?.stringValue == "c1")
        #expect(traffic.text.contains(#""command":"c1","rule":"auto-ok","bytes":"#))
    }

    @Test("respond to an id that is not pending is an error that says so, and changes nothing")
    func respondNotPending() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let (before, reply) = try await client.command("c1", "respond", args: #"{"correlationId":"nope","status":"success"}"#)
        #expect(before.isEmpty)
        #expect(reply.ok == false)
        #expect(reply.errorCode == "not_pending")
        #expect(reply.errorMessage?.contains("'nope'") == true)
        #expect(reply.json["sent"] == nil)
        #expect(fixture.delivered.isEmpty)
        #expect(fixture.host.lastError == nil)
        #expect(try await client.command("c2", "ping").reply.ok == true)
    }

    @Test("respond twice: the second is told the request was already answered")
    func respondTwice() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        fixture.receive(messageText(action: "custom.ask", id: "p-1"))
        let args = #"{"correlationId":"p-1","status":"success"}"#
        #expect(try await client.command("c1", "respond", args: args).reply.ok == true)
        let second = try await client.command("c2", "respond", args: args).reply
        #expect(second.ok == false)
        #expect(second.errorCode == "already_answered")
        #expect(second.errorMessage?.contains("already answered") == true)
        #expect(fixture.delivered.filter { $0.correlationId == "p-1" }.count == 1)
    }

    @Test("respond to a request a handler owns is refused with handled_elsewhere")
    func respondHandledElsewhere() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        fixture.host.registerCustomCapability("slow.op") { _, _ in }  // never answers
        let (client, _, _) = try await fixture.client(subscribe: false)
        fixture.receive(messageText(action: "slow.op", id: "h-1"))
        let reply = try await client.command("c1", "respond", args: #"{"correlationId":"h-1","status":"success"}"#).reply
        #expect(reply.errorCode == "handled_elsewhere")
        #expect(fixture.delivered.isEmpty)
    }

    @Test("two clients racing to answer the same requests: exactly one wins each, the other is told already_answered")
    func racingClients() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (first, _, _) = try await fixture.client(subscribe: false)
        let (second, _, _) = try await fixture.client(subscribe: false)
        let rounds = 20
        for round in 0..<rounds {
            fixture.receive(messageText(action: "custom.ask", id: "race-\(round)"))
        }
        // Both commands are on the wire before either is answered.
        for round in 0..<rounds {
            let args = #"{"correlationId":"race-\#(round)","status":"success"}"#
            try first.sendCommand("a\(round)", "respond", args: args)
            try second.sendCommand("b\(round)", "respond", args: args)
        }
        for round in 0..<rounds {
            let a = try await first.reply("a\(round)").reply
            let b = try await second.reply("b\(round)").reply
            #expect([a.ok, b.ok].filter { $0 == true }.count == 1, "round \(round)")
            let loser = a.ok == true ? b : a
            #expect(loser.errorCode == "already_answered", "round \(round)")
            #expect(fixture.delivered.filter { $0.correlationId == "race-\(round)" }.count == 1)
        }
        #expect(fixture.host.pendingRequests.isEmpty)
    }

    @Test("sendEvent sends a host event marked as the inspector's; an empty name is invalid_arguments")
    func sendEvent() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let (before, reply) = try await client.command("ev", "sendEvent", args: #"{"name":"host.ping","data":{"n":2}}"#)
        #expect(reply.ok == true)
        #expect(reply.json["result"] == [:])
        let event = try #require(fixture.delivered.last)
        #expect(event.type == .event)
        #expect(event.payload.action == "host.ping")
        #expect(event.payload.data == ["n": 2])
        #expect(event.correlationId.hasPrefix("ios-event-"))
        #expect(before.count == 1)
        #expect(before.first?.record?["origin"]?.stringValue == "inspector")
        #expect(before.first?.record?["command"]?.stringValue == "ev")
        #expect(reply.json["sent"]?[0]?["correlationId"]?.stringValue == event.correlationId)

        let empty = try await client.command("ev2", "sendEvent", args: #"{"name":""}"#).reply
        #expect(empty.errorCode == "invalid_arguments")
        #expect(fixture.delivered.count == 1)
    }

    @Test("completeSlot with a synthetic image answers the active request with a real PNG")
    func completeSlotSyntheticImage() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        fixture.makeSlotWaitForCompletion(.document)
        let (client, _, _) = try await fixture.client()
        fixture.receive(messageText(action: "camera.document.capture", id: "cap-1"))
        #expect(fixture.host.documentCapture.activeRequest?.correlationId == "cap-1")
        _ = try await client.next { $0.eventType == "slot" }

        let args = #"{"slot":"document","result":{"type":"success","width":4,"height":3}}"#
        let (before, reply) = try await client.command("c1", "completeSlot", args: args)
        #expect(reply.ok == true)
        #expect(reply.json["result"] == ["correlationId": "cap-1"])
        #expect(fixture.host.documentCapture.activeRequest == nil)

        let response = try #require(fixture.delivered.last)
        #expect(response.correlationId == "cap-1")
        #expect(response.payload.status == .success)
        let data = try #require(response.payload.data)
        #expect(data["imageWidth"] == 4)
        #expect(data["imageHeight"] == 3)
        #expect(data["mimeType"] == "image/png")
        let png = try #require(data["imageBase64"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

        let slotEvent = try #require(before.first { $0.eventType == "slot" })
        #expect(slotEvent.json["event"]?["slot"]?["kind"]?.stringValue == "document")
        #expect(slotEvent.json["event"]?["slot"]?["activeRequest"] == nil)  // idle: the key is left out
        let traffic = try #require(before.first { $0.eventType == "traffic" })
        #expect(traffic.record?["origin"]?.stringValue == "inspector")
        #expect(traffic.record?["command"]?.stringValue == "c1")
        #expect(reply.json["sent"]?[0]?["payload"]?["data"]?["imageBase64"] == data["imageBase64"])
    }

    @Test("completeSlot at the default size sends a plausible, compressed capture: tens of kilobytes, not 1.2 MB of Base64")
    func completeSlotDefaultImageIsSmall() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        fixture.makeSlotWaitForCompletion(.document)
        let (client, _, _) = try await fixture.client()
        fixture.receive(messageText(action: "camera.document.capture", id: "cap-1"))
        _ = try await client.next { $0.eventType == "slot" }
        let size = SyntheticImage.defaultSize(for: .document)
        let args = #"{"slot":"document","result":{"type":"success","width":\#(size.width),"height":\#(size.height)}}"#
        let (before, reply) = try await client.command("c1", "completeSlot", args: args)
        #expect(reply.ok == true)
        let traffic = try #require(before.first { $0.eventType == "traffic" })
        let bytes = try #require(traffic.record?["bytes"]?.numberValue)
        #expect(bytes < 100_000, "the response is \(bytes) bytes; the large-payload lint starts at 1 MiB")
        let data = try #require(fixture.delivered.last?.payload.data)
        let png = try #require(data["imageBase64"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        #expect(png.count > 1_000, "a picture, not a stub")
        // The header says the size reported.
        #expect(Array(png[16..<24]) == [0, 0, 0x05, 0x00, 0, 0, 0x03, 0x28], "1280×808 in IHDR")
    }

    @Test("completeSlot with a given base64 image, an error result and a cancellation")
    func completeSlotVariants() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        fixture.makeSlotWaitForCompletion(.selfie)
        let (client, _, _) = try await fixture.client(subscribe: false)

        fixture.receive(messageText(action: "camera.selfie.capture", id: "s-1"))
        let given = Data([1, 2, 3, 4]).base64EncodedString()
        let image = try await client.command(
            "c1", "completeSlot", args: #"{"slot":"selfie","result":{"type":"success","imageBase64":"\#(given)","width":2,"height":2}}"#
        ).reply
        #expect(image.ok == true)
        #expect(fixture.delivered.last?.payload.data?["imageBase64"]?.stringValue == given)
        #expect(fixture.delivered.last?.payload.data?["mimeType"] == "image/jpeg")

        fixture.receive(messageText(action: "camera.selfie.capture", id: "s-2"))
        let failed = try await client.command(
            "c2", "completeSlot",
            args: #"{"slot":"selfie","result":{"type":"error","error":{"code":"PERMISSION_DENIED","message":"denied","recoverable":true}}}"#
        ).reply
        #expect(failed.ok == true)
        #expect(fixture.delivered.last?.correlationId == "s-2")
        #expect(fixture.delivered.last?.payload.status == .error)
        #expect(fixture.delivered.last?.payload.error?.code == "PERMISSION_DENIED")

        fixture.receive(messageText(action: "camera.selfie.capture", id: "s-3"))
        let cancelled = try await client.command(
            "c3", "completeSlot", args: #"{"slot":"selfie","result":{"type":"cancelled","reason":"User closed"}}"#
        ).reply
        #expect(cancelled.ok == true)
        #expect(fixture.delivered.last?.correlationId == "s-3")
        #expect(fixture.delivered.last?.payload.status == .cancelled)
        #expect(fixture.delivered.last?.payload.error == BridgeErrorPayload(code: "CANCELLED", message: "User closed", recoverable: true))

        fixture.receive(messageText(action: "camera.selfie.capture", id: "s-4"))
        let badType = try await client.command("c4", "completeSlot", args: #"{"slot":"selfie","result":{"type":"maybe"}}"#).reply
        #expect(badType.errorCode == "invalid_arguments")
        let badBase64 = try await client.command(
            "c5", "completeSlot", args: #"{"slot":"selfie","result":{"type":"success","imageBase64":"%%%","width":2,"height":2}}"#
        ).reply
        #expect(badBase64.errorCode == "invalid_arguments")
        let badSize = try await client.command("c6", "completeSlot", args: #"{"slot":"selfie","result":{"type":"success","width":0,"height":2}}"#).reply
        #expect(badSize.errorCode == "invalid_arguments")
        #expect(fixture.host.selfieCapture.activeRequest?.correlationId == "s-4")
    }

    @Test("cancelSlot cancels the active request with the given or the default reason")
    func cancelSlot() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        fixture.makeSlotWaitForCompletion(.document)
        let (client, _, _) = try await fixture.client(subscribe: false)
        fixture.receive(messageText(action: "camera.document.capture", id: "d-1"))
        let reply = try await client.command("c1", "cancelSlot", args: #"{"slot":"document","reason":"Testing"}"#).reply
        #expect(reply.ok == true)
        #expect(reply.json["result"] == ["correlationId": "d-1"])
        #expect(fixture.delivered.last?.payload.status == .cancelled)
        #expect(fixture.delivered.last?.payload.error?.message == "Testing")

        fixture.receive(messageText(action: "camera.document.capture", id: "d-2"))
        #expect(try await client.command("c2", "cancelSlot", args: #"{"slot":"document"}"#).reply.ok == true)
        #expect(fixture.delivered.last?.payload.error?.message == "Cancelled from the inspector")
    }

    @Test("completing or cancelling an idle slot is slot_idle; an unknown slot is invalid_arguments")
    func idleSlot() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        let complete = try await client.command("c1", "completeSlot", args: #"{"slot":"document","result":{"type":"cancelled","reason":"x"}}"#).reply
        #expect(complete.errorCode == "slot_idle")
        #expect(complete.errorMessage?.contains("idle") == true)
        let cancel = try await client.command("c2", "cancelSlot", args: #"{"slot":"selfie"}"#).reply
        #expect(cancel.errorCode == "slot_idle")
        let unknown = try await client.command("c3", "cancelSlot", args: #"{"slot":"passport"}"#).reply
        #expect(unknown.errorCode == "invalid_arguments")
        #expect(fixture.delivered.isEmpty)
    }

    @Test("setSlotEnabled and setSlotPermission change the host's slot and are seen as slot events")
    func slotSettings() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        let (disabledEvents, disabled) = try await client.command("c1", "setSlotEnabled", args: #"{"slot":"document","enabled":false}"#)
        #expect(disabled.ok == true)
        #expect(fixture.host.documentCapture.isEnabled == false)
        #expect(disabledEvents.last?.json["event"]?["slot"]?["enabled"]?.boolValue == false)
        #expect(disabledEvents.last?.json["event"]?["slot"]?["kind"]?.stringValue == "document")

        let (permissionEvents, permission) = try await client.command("c2", "setSlotPermission", args: #"{"slot":"selfie","permissionState":"denied"}"#)
        #expect(permission.ok == true)
        #expect(fixture.host.selfieCapture.permissionState == .denied)
        #expect(permissionEvents.last?.json["event"]?["slot"]?["permissionState"]?.stringValue == "denied")

        let bad = try await client.command("c3", "setSlotPermission", args: #"{"slot":"selfie","permissionState":"maybe"}"#).reply
        #expect(bad.errorCode == "invalid_arguments")
        #expect(fixture.host.selfieCapture.permissionState == .denied)
    }

    @Test("clearError clears lastError (an event with text null) and keeps the history")
    func clearError() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.receive("garbage")
        let (before, reply) = try await client.command("c1", "clearError")
        #expect(reply.ok == true)
        #expect(fixture.host.lastError == nil)
        let cleared = try #require(before.last)
        #expect(cleared.eventType == "lastError")
        // A cleared value has no text and no cause (the keys are left out).
        #expect(cleared.record?["text"] == nil)
        #expect(cleared.record?["cause"] == nil)
        #expect(cleared.record?["seq"]?.int == cleared.seq)
        let (_, _) = try await client.command("s", "snapshot")
        let snapshot = try await client.next()
        #expect(snapshot.json["state"]?["lastError"]?.isNull == true)
        #expect(snapshot.json["state"]?["errorHistory"]?.arrayValue?.count == 2)
    }

    @Test("clearLog clears the host's received messages and the agent's log")
    func clearLog() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.receive(messageText(type: "event", action: "a", id: "e-1"))
        fixture.receive("garbage")
        let (before, reply) = try await client.command("c1", "clearLog")
        #expect(reply.ok == true)
        #expect(before.last?.eventType == "logCleared")
        #expect(before.last?.text.hasSuffix(#""event":{"type":"logCleared"}}"#) == true)
        #expect(fixture.host.receivedMessages.isEmpty)
        let (_, _) = try await client.command("s", "snapshot")
        let snapshot = try await client.next()
        #expect(snapshot.json["state"]?["messages"] == [])
        #expect(snapshot.json["state"]?["malformed"] == [])
        #expect(snapshot.json["state"]?["counts"]?["received"]?.int == 1)
    }

    @Test("the snapshot command replies with a seq, then sends a snapshot at exactly that seq")
    func snapshotCommand() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client()
        fixture.receive(messageText(type: "event", action: "a", id: "e-1"))
        let (before, reply) = try await client.command("s1", "snapshot")
        #expect(before.map(\.seq) == [1])
        #expect(reply.json["result"] == ["seq": 1])
        let snapshot = try await client.next()
        #expect(snapshot.kind == "snapshot")
        #expect(snapshot.seq == 1)
        fixture.receive(messageText(type: "event", action: "b", id: "e-2"))
        #expect(try await client.next().seq == 2)
    }

    @Test("wrong or missing arguments are invalid_arguments naming the problem; the connection goes on")
    func invalidArguments() async throws {
        var limits = Fixture.limits()
        limits.maxProtocolErrors = 3
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        let missing = try await client.command("c1", "respond", args: #"{"status":"success"}"#).reply
        #expect(missing.errorCode == "invalid_arguments")
        #expect(missing.errorMessage?.contains("correlationId") == true)
        let status = try await client.command("c2", "respond", args: #"{"correlationId":"x","status":"great"}"#).reply
        #expect(status.errorCode == "invalid_arguments")
        let noArgs = try await client.command("c3", "setSlotEnabled").reply
        #expect(noArgs.errorCode == "invalid_arguments")
        let wrongType = try await client.command("c4", "setSlotEnabled", args: #"{"slot":"document","enabled":"yes"}"#).reply
        #expect(wrongType.errorCode == "invalid_arguments")
        // Argument mistakes do not count as abuse: more of them than maxProtocolErrors, still open.
        #expect(try await client.command("c5", "ping").reply.ok == true)
    }

    @Test("an unknown command is unknown_command with its id, listing the known ones; the connection goes on")
    func unknownCommand() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        let reply = try await client.command("c1", "reboot").reply
        #expect(reply.ok == false)
        #expect(reply.errorCode == "unknown_command")
        #expect(reply.errorMessage?.contains("'reboot'") == true)
        #expect(reply.errorMessage?.contains("completeSlot") == true)
        #expect(try await client.command("c2", "ping").reply.ok == true)
    }

    @Test("a command after the host object is gone is answered with host_gone; the connection goes on")
    func hostGone() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        var host: BridgeHost? = BridgeHost(hostVersion: "1.0")
        weak let weakHost = host
        let agent = try #require(host).startInspector(name: "gone", socketPath: directory + "/a.sock", limits: Fixture.limits())
        defer { agent.stop() }
        let client = try RawClient.connect(agent.socketPath)
        _ = try await client.handshake(subscribe: false)
        host = nil
        #expect(weakHost == nil, "the agent must not keep the host alive")
        let reply = try await client.command("c1", "clearError").reply
        #expect(reply.errorCode == "host_gone")
        #expect(try await client.command("c2", "ping").reply.ok == true)
    }

    @Test("replies for commands that touch nothing come in the order the commands were sent")
    func manyCommandsInOrder() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        for index in 0..<30 {
            try client.sendCommand("c\(index)", "respond", args: #"{"correlationId":"none-\#(index)","status":"success"}"#)
        }
        var ids: [String] = []
        for _ in 0..<30 { ids.append(try #require(try await client.next().id)) }
        #expect(ids == (0..<30).map { "c\($0)" })
    }
}
