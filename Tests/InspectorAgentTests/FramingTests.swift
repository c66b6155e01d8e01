import BridgeCore
import Foundation
import InspectorAgent
import TestSupport
import Testing

@MainActor
@Suite("Framing and bad input from clients")
struct FramingTests {
    @Test("malformed lines get malformed_frame (id null) and the connection goes on")
    func malformedLines() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        let bad = [
            "not json",
            #"{"kind":"command","id":"x","command":"ping""#,
            "[1,2,3]",
            #"{"id":"no-kind"}"#,
            #"{"kind":"command","id":7,"command":"ping"}"#,
        ]
        for line in bad {
            try client.send(line)
            let reply = try await client.next()
            #expect(reply.isReply, "\(line)")
            #expect(reply.ok == false, "\(line)")
            #expect(reply.errorCode == "malformed_frame", "\(line)")
            #expect(reply.json["id"]?.isNull == true, "\(line)")
        }
        try client.send(#"{"kind":"#)
        let syntax = try await client.next()
        #expect(syntax.errorMessage?.contains("invalid JSON") == true)

        // A well-formed frame of the wrong kind, and a command without id, keep the id they had.
        try client.send(#"{"kind":"hello","id":"h2","protocol":1}"#)
        let wrongKind = try await client.next()
        #expect(wrongKind.errorCode == "malformed_frame")
        #expect(wrongKind.id == "h2")
        try client.send(#"{"kind":"command","command":"ping"}"#)
        #expect(try await client.next().errorCode == "malformed_frame")

        #expect(try await client.command("ok", "ping").reply.ok == true)
    }

    @Test("a deeply nested frame is a malformed_frame, not a crash; nesting a command needs still works")
    func deeplyNestedFrame() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        // A few hundred levels in under 10 KiB once overflowed the agent thread's stack inside
        // JSONDecoder and took the host down.
        let depth = 5000
        try client.send(#"{"kind":"command","id":"deep","command":"ping","args":{"x":"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth) + "}}")
        let refused = try await client.next()
        #expect(refused.errorCode == "malformed_frame")
        #expect(refused.errorMessage?.contains("nest") == true, "\(refused)")

        // Data nested as deep as the bridge itself allows (100 levels) still gets through.
        fixture.receive(messageText(action: "nfc.read", id: "nested"))
        let data = #"{"v":"# + String(repeating: "[", count: 99) + String(repeating: "]", count: 99) + "}"
        let answer = try await client.command("r1", "respond", args: #"{"correlationId":"nested","status":"success","data":\#(data)}"#)
        #expect(answer.reply.ok == true, "\(answer.reply)")
        #expect(try await client.command("ok", "ping").reply.ok == true)
    }

    @Test("repeated bad frames close the connection with too_many_errors")
    func repeatedAbuse() async throws {
        var limits = Fixture.limits()
        limits.maxProtocolErrors = 3
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        try client.write("bad 1\nbad 2\n")
        try client.sendCommand("u", "nonsense")
        let frames = try await client.readUntilClosed()
        #expect(frames.map(\.errorCode) == ["malformed_frame", "malformed_frame", "unknown_command", "too_many_errors"])
        #expect(frames[2].id == "u")
        #expect(frames.last?.json["id"]?.isNull == true)
        #expect(await eventually { fixture.agent.clientCount == 0 })
    }

    @Test("blank lines are ignored and CRLF line ends are accepted")
    func blankLinesAndCRLF() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = try RawClient.connect(fixture.socketPath)
        _ = try await client.next()
        try client.write("\n\r\n   \n\t\n" + #"{"kind":"hello","protocol":1,"client":"crlf","subscribe":false}"# + "\r\n")
        try client.write("\r\n" + #"{"kind":"command","id":"c1","command":"ping"}"# + "\r\n\r\n")
        let reply = try await client.next()
        #expect(reply.id == "c1")
        #expect(reply.ok == true)
        #expect(try client.isClosedByPeer() == false)
    }

    @Test("a frame over the cap gets frame_too_large once, is skipped, and the next line works")
    func oversizedFrame() async throws {
        var limits = Fixture.limits()
        limits.maxClientFrameBytes = 1024
        let fixture = try Fixture(limits: limits)
        defer { fixture.stop() }
        let (client, _, _) = try await fixture.client(subscribe: false)
        // 2 MiB without a newline, in several writes, then the newline and a good command.
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 256 * 1024)
        for _ in 0..<8 { try client.write(chunk) }
        try client.write("\n")
        try client.sendCommand("after", "ping")
        let (before, reply) = try await client.reply("after")
        #expect(before.count == 1)
        #expect(before.first?.errorCode == "frame_too_large")
        #expect(before.first?.json["id"]?.isNull == true)
        #expect(before.first?.errorMessage?.contains("1024") == true)
        #expect(reply.ok == true)

        // A frame exactly at the cap is accepted (here: a command padded with spaces).
        let command = #"{"kind":"command","id":"edge","command":"ping"}"#
        try client.send(command + String(repeating: " ", count: 1024 - command.utf8.count))
        #expect(try await client.next().id == "edge")
    }

    @Test("a line split byte by byte is framed correctly")
    func byteByByte() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = try RawClient.connect(fixture.socketPath)
        _ = try await client.next()
        let text = #"{"kind":"hello","protocol":1,"client":"slow","subscribe":true}"# + "\n"
            + #"{"kind":"command","id":"é-1","command":"respond","args":{"correlationId":"ü","status":"success"}}"# + "\n"
        for byte in Array(text.utf8) {
            try client.write([byte])
            await Task.yield()
        }
        #expect(try await client.next().kind == "snapshot")
        let reply = try await client.next()
        #expect(reply.id == "é-1")
        #expect(reply.errorCode == "not_pending")
        #expect(reply.errorMessage?.contains("'ü'") == true)
    }

    @Test("many lines in one write are all answered, in order")
    func manyLinesInOneWrite() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let client = try RawClient.connect(fixture.socketPath)
        _ = try await client.next()
        var text = #"{"kind":"hello","protocol":1,"client":"bulk","subscribe":false}"# + "\n"
        for index in 0..<500 {
            text += #"{"kind":"command","id":"p\#(index)","command":"ping"}"# + "\n"
        }
        try client.write(text)
        for index in 0..<500 {
            let reply = try await client.next()
            #expect(reply.id == "p\(index)")
            #expect(reply.ok == true)
        }
    }

    @Test("a client killed mid-frame is dropped; the host and the other clients carry on")
    func clientKilledMidFrame() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let (watcher, _, _) = try await fixture.client()
        let (victim, _, _) = try await fixture.client()
        #expect(await eventually { fixture.agent.clientCount == 2 })
        try victim.write(#"{"kind":"command","id":"half","comm"#)
        victim.close()
        #expect(await eventually { fixture.agent.clientCount == 1 })

        // A client that goes away with a large snapshot unread (the agent's write fails mid-frame).
        for index in 0..<300 {
            fixture.receive(messageText(type: "event", action: "fill", id: "f-\(index)", data: #"{"pad":"\#(String(repeating: "p", count: 2000))"}"#))
        }
        let greedy = try RawClient.connect(fixture.socketPath)
        _ = try await greedy.next()
        try greedy.sendHello()
        try greedy.sendCommand("s1", "snapshot")
        try greedy.sendCommand("s2", "snapshot")
        greedy.close()

        fixture.receive(messageText(type: "event", action: "still.alive", id: "alive"))
        let (_, alive) = try await watcher.next { $0.record?["message"]?["correlationId"]?.stringValue == "alive" }
        #expect(alive.eventType == "traffic")
        #expect(await eventually { fixture.agent.clientCount == 1 })
        #expect(try await watcher.command("c1", "ping").reply.ok == true)
    }

    @Test("100 connect/disconnect cycles leave no client behind and the agent still serves")
    func connectDisconnectCycles() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        for cycle in 0..<100 {
            let client = try RawClient.connect(fixture.socketPath)
            switch cycle % 4 {
            case 0:
                client.close()  // before reading anything
            case 1:
                _ = try await client.next()
                client.close()  // after the agent's hello
            case 2:
                _ = try await client.handshake()
                client.close()  // after the snapshot
            default:
                _ = try await client.handshake(subscribe: false)
                try client.sendCommand("c", "clearError")
                client.close()  // with a command in flight
            }
        }
        #expect(await eventually { fixture.agent.clientCount == 0 })
        let (client, _, snapshot) = try await fixture.client()
        #expect(snapshot != nil)
        #expect(try await client.command("c", "ping").reply.ok == true)
        #expect(fixture.agent.clientCount == 1)
    }
}
