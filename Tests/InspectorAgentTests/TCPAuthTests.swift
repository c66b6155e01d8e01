import BridgeCore
import Foundation
@testable import InspectorAgent
import InspectorClient
import InspectorProtocol
import SocketSupport
import TestSupport
import Testing
import ThreadSupport

/// Lines an agent logged.
final class LogLines: Sendable {
    private let entries = Locked<[String]>([])

    var log: @Sendable (String) -> Void {
        { [entries] line in entries.withLock { $0.append(line) } }
    }

    var lines: [String] { entries.current }
}

/// A host name that must never reach an unauthenticated TCP client.
private let secretHostName = "secret-host-name"

@MainActor
private func tcpFixture(token: String? = nil, limits: AgentLimits = Fixture.limits(), log: LogLines = LogLines()) throws -> Fixture {
    try Fixture(limits: limits, name: secretHostName, tcp: InspectorTCPOptions(port: 0, token: token, log: log.log))
}

/// A raw client connected to the fixture's TCP port.
@MainActor
private func tcpClient(_ fixture: Fixture) throws -> RawClient {
    let endpoint = try #require(fixture.agent.tcpEndpoint)
    return RawClient(connection: try UnixConnection.connectTCP(host: "127.0.0.1", port: endpoint.port))
}

/// Every byte the agent sends until it closes the connection.
private func bytesUntilClosed(_ client: RawClient) async throws -> String {
    try await client.readUntilClosed().map(\.text).joined(separator: "\n")
}

/// What an unauthenticated client must never see: the host's name, pid, hello or any state.
private func expectNoHostData(_ received: String, pid: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!received.contains(secretHostName), sourceLocation: sourceLocation)
    #expect(!received.contains(#""hello""#), sourceLocation: sourceLocation)
    #expect(!received.contains(#""pid""#), sourceLocation: sourceLocation)
    #expect(!received.contains(String(pid)), sourceLocation: sourceLocation)
    #expect(!received.contains("snapshot"), sourceLocation: sourceLocation)
    #expect(!received.contains("custom.ask"), sourceLocation: sourceLocation)
}

/// The token a test agent uses (so a test can send near misses of it).
private let knownToken = "0123456789abcdef0123456789abcdef"

@MainActor
@Suite("TCP attach with a token (docs/real-apps.md, On a device, over USB)")
struct TCPAuthTests {
    @Test("with the right token a TCP client gets the hello, the snapshot and command replies, like a Unix-socket client")
    func attachAndCommand() async throws {
        let log = LogLines()
        let fixture = try tcpFixture(log: log)
        defer { fixture.stop() }
        let endpoint = try #require(fixture.agent.tcpEndpoint)
        #expect(endpoint.token.count == 64)
        #expect(endpoint.token.allSatisfy { $0.isHexDigit })
        let client = try tcpClient(fixture)
        defer { client.close() }
        let authLine = String(decoding: try ClientAuth(token: endpoint.token).frame().dropLast(), as: UTF8.self)
        try client.send(authLine)
        let (hello, snapshot) = try await client.handshake()
        #expect(hello.json["host"]?["name"]?.stringValue == secretHostName)
        #expect(snapshot?.kind == "snapshot")
        fixture.receive(messageText(action: "custom.ask", id: "tcp-1"))
        let (_, reply) = try await client.command("c1", "respond", args: #"{"correlationId":"tcp-1","status":"success","data":{}}"#)
        #expect(reply.ok == true)
        #expect(await eventually { fixture.delivered.contains { $0.correlationId == "tcp-1" } })
        // The connect line is the one line with the token.
        #expect(log.lines.filter { $0.contains(endpoint.token) } == [endpoint.connectLine])
        #expect(endpoint.connectLine.hasPrefix("bridge-inspector: attach over USB: iproxy \(endpoint.port) \(endpoint.port), then bridge-inspector --connect 127.0.0.1:\(endpoint.port) --token "))
        #expect(!"\(endpoint)".contains(endpoint.token))
    }

    /// First lines that must be refused: each with the error code expected.
    nonisolated static let refusals: [(name: String, firstBytes: String, code: String)] = [
        ("no token (a hello first)", #"{"kind":"hello","protocol":1,"client":"x","subscribe":true}"# + "\n", "auth_required"),
        ("an auth frame without a token", #"{"kind":"auth"}"# + "\n", "auth_failed"),
        ("a wrong token", #"{"kind":"auth","token":"fedcba9876543210fedcba9876543210"}"# + "\n", "auth_failed"),
        ("the token with an escaped newline", #"{"kind":"auth","token":"\#(knownToken)\n"}"# + "\n", "auth_failed"),
        ("the token with a raw newline in it", #"{"kind":"auth","token":"\#(knownToken)"# + "\n" + #""}"# + "\n", "auth_required"),
        ("the token with a trailing space", #"{"kind":"auth","token":"\#(knownToken) "}"# + "\n", "auth_failed"),
        ("a prefix of the token", #"{"kind":"auth","token":"\#(knownToken.dropLast())"}"# + "\n", "auth_failed"),
        ("the token and one more character", #"{"kind":"auth","token":"\#(knownToken)0"}"# + "\n", "auth_failed"),
        ("an empty token", #"{"kind":"auth","token":""}"# + "\n", "auth_failed"),
        ("a blank first line", "\n", "auth_required"),
        ("a command first", #"{"kind":"command","id":"c1","command":"snapshot"}"# + "\n", "auth_required"),
        ("not JSON", "GET / HTTP/1.1\r\n\r\n", "auth_required"),
        ("an oversized first line, no newline", String(repeating: "x", count: 4_000), "auth_required"),
        ("an oversized auth frame", #"{"kind":"auth","token":"\#(String(repeating: "a", count: 2_000))"}"# + "\n", "auth_required"),
    ]

    @Test("a bad first line is refused, the connection closed, and not one byte of the host is sent", arguments: 0..<14)
    func refused(_ index: Int) async throws {
        #expect(Self.refusals.count == 14)
        let refusal = Self.refusals[index]
        let fixture = try tcpFixture(token: knownToken)
        defer { fixture.stop() }
        let pid = Int(ProcessInfo.processInfo.processIdentifier)
        let client = try tcpClient(fixture)
        defer { client.close() }
        try client.write(refusal.firstBytes)
        fixture.receive(messageText(action: "custom.ask", id: "while-refusing"))
        let frames = try await client.readUntilClosed()
        let received = frames.map(\.text).joined(separator: "\n")
        #expect(frames.count == 1, "\(refusal.name): \(received)")
        #expect(frames.first?.errorCode == refusal.code, "\(refusal.name): \(received)")
        #expect(frames.first?.errorMessage?.contains("bridge-inspector: attach over USB") == true)
        #expect(!received.contains(knownToken))
        expectNoHostData(received, pid: pid)
    }

    @Test("a client that says nothing is refused just after the handshake deadline (not at it), without host data")
    func silence() throws {
        var limits = AgentLimits()
        limits.handshakeSeconds = 0.3
        let gate = AgentAuthGate(token: knownToken, log: LogLines().log)
        let agent = try EmbeddedAgent(limits: limits, gate: gate, name: secretHostName)
        defer { agent.stop() }
        let client = agent.connect(.tcp)
        agent.receive(messageText(action: "custom.ask", id: "while-silent"))
        agent.advanceTime(by: 0.3)
        #expect(try client.readFrames().isEmpty)
        #expect(!client.isClosedByAgent)
        agent.advanceTime(by: 0.001)
        let frames = try client.readFrames()
        #expect(frames.map(\.errorCode) == ["auth_required"])
        #expect(frames.first?.errorMessage?.hasPrefix("no auth frame within 0.3 seconds; ") == true)
        #expect(client.isClosedByAgent)
        expectNoHostData(frames.map(\.text).joined(separator: "\n"), pid: Int(ProcessInfo.processInfo.processIdentifier))
        #expect(gate.failures == 1, "a silent client counts as a failure for the pace")
    }

    @Test("repeated failures are judged further and further apart (0.1 s doubling), shared across connections, to the millisecond")
    func pacedFailures() throws {
        let log = LogLines()
        let gate = AgentAuthGate(token: knownToken, log: log.log)
        let agent = try EmbeddedAgent(gate: gate, name: secretHostName)
        defer { agent.stop() }
        let start = agent.now
        // Five connections, all wrong, sent at once.
        let clients = (0..<5).map { _ in agent.connect(.tcp) }
        for (attempt, client) in clients.enumerated() {
            client.send(#"{"kind":"auth","token":"wrong-token-number-\#(attempt)"}"#)
        }
        agent.run()
        // One judgement at once, then one per delay earned by the failures before it.
        let expectedOffsets = [0, 0.1, 0.3, 0.7, 1.5]
        var judged = 0
        for (index, offset) in expectedOffsets.enumerated() {
            if index > 0 {
                let deadline = try #require(agent.nextDeadline)
                #expect(abs(deadline.timeIntervalSince(start) - offset) < 1e-9, "judgement \(index) due at \(deadline.timeIntervalSince(start)) s")
                agent.advanceTime(by: deadline.timeIntervalSince(agent.now) - 0.001)
                #expect(clients.count(where: \.isClosedByAgent) == judged, "judgement \(index) came early")
                agent.advanceToNextDeadline()
            }
            judged += 1
            #expect(clients.count(where: \.isClosedByAgent) == judged, "judgement \(index) at \(offset) s")
        }
        for client in clients {
            #expect(try client.readFrames().map(\.errorCode) == ["auth_failed"])
        }
        #expect(log.lines.count(where: { $0.contains("refused a TCP connection") }) == 5)
        // The right token after the failures is judged after the same pause (1.6 s), then accepted.
        let late = agent.connect(.tcp)
        late.send(#"{"kind":"auth","token":"\#(knownToken)"}"#)
        agent.advanceTime(by: 1.599)
        #expect(try late.readFrames().isEmpty)
        let due = try #require(agent.advanceToNextDeadline())
        #expect(abs(due.timeIntervalSince(start) - 3.1) < 1e-9, "judged at \(due.timeIntervalSince(start)) s")
        #expect(try late.readFrames().map(\.kind) == ["hello"])
        #expect(gate.failures == 0)
        // The token is in no log line.
        #expect(!log.lines.contains { $0.contains(knownToken) })
    }

    @Test("while an auth waits for its turn, the agent's loop is not blocked: Unix-socket clients attach and are answered")
    func pacingDoesNotBlock() async throws {
        var options = InspectorTCPOptions(port: 0, token: knownToken, log: LogLines().log)
        // The next judgement, after one failure, is an hour away.
        options.firstDelaySeconds = 3_600
        options.maximumDelaySeconds = 3_600
        let fixture = try Fixture(name: secretHostName, tcp: options)
        defer { fixture.stop() }
        let wrong = try tcpClient(fixture)
        defer { wrong.close() }
        try wrong.send(#"{"kind":"auth","token":"fedcba9876543210fedcba9876543210"}"#)
        #expect(try await wrong.readUntilClosed().map(\.errorCode) == ["auth_failed"])
        let waiting = try tcpClient(fixture)
        defer { waiting.close() }
        try waiting.send(#"{"kind":"auth","token":"\#(knownToken)"}"#)
        // Served from start to finish while that auth waits; it has still received nothing.
        let (unix, hello, _) = try await fixture.client(subscribe: true)
        defer { unix.close() }
        #expect(hello.json["host"]?["name"]?.stringValue == secretHostName)
        let (_, reply) = try await unix.command("u1", "ping")
        #expect(reply.ok == true)
        #expect(try !waiting.isClosedByPeer())
        waiting.patience = .milliseconds(1)
        await #expect(throws: TestTimeout.self) { _ = try await waiting.nextLine() }
    }

    @Test("connections waiting to authenticate take at most half the slots; one more is closed without a byte, Unix clients still attach")
    func unauthenticatedCap() async throws {
        let fixture = try tcpFixture(token: knownToken)
        defer { fixture.stop() }
        let cap = Fixture.limits().maxClientsAwaitingAuth
        #expect(cap == Fixture.limits().maxClients / 2)
        var silent: [RawClient] = []
        defer { for client in silent { client.close() } }
        for _ in 0..<cap {
            silent.append(try tcpClient(fixture))
            let expected = silent.count
            #expect(await eventually { fixture.agent.clientCount == expected })
        }
        let oneMore = try tcpClient(fixture)
        defer { oneMore.close() }
        #expect(try await oneMore.readUntilClosed().isEmpty)
        #expect(fixture.agent.clientCount == cap)
        let unix = try await fixture.client(subscribe: false)
        defer { unix.client.close() }
        #expect(unix.hello.json["host"]?["name"]?.stringValue == secretHostName)
    }

    @Test("the pause between judgements grows with failures and is capped")
    func delays() {
        let delays = (0...20).map { AgentAuthGate.delay(afterFailures: $0) }
        #expect(delays[0] == 0)
        #expect(delays[1] > 0)
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(delays.allSatisfy { $0 <= 3 })
        #expect(delays.last == 3)
    }

    @Test("tokens compare equal only when identical (prefixes, longer and empty ones differ)")
    func tokenComparison() {
        let token = Array(knownToken.utf8)
        #expect(AgentAuthGate.constantTimeEqual(token, token))
        #expect(!AgentAuthGate.constantTimeEqual(Array(token.dropLast()), token))
        #expect(!AgentAuthGate.constantTimeEqual(token + [0x30], token))
        #expect(!AgentAuthGate.constantTimeEqual([], token))
        #expect(!AgentAuthGate.constantTimeEqual(token.map { $0 ^ 1 }, token))
        // 256 bytes longer wraps a UInt8 length difference to 0: still different.
        #expect(!AgentAuthGate.constantTimeEqual(token + [UInt8](repeating: 0, count: 256), token))
    }

    @Test("a given token must be 16 to 128 safe characters; a random one is 64 hex digits and new each time")
    func tokenRules() throws {
        #expect(throws: InspectorTCPError.self) { try AgentTCPServer.validated("short") }
        #expect(throws: InspectorTCPError.self) { try AgentTCPServer.validated(knownToken + " ") }
        #expect(throws: InspectorTCPError.self) { try AgentTCPServer.validated(knownToken + "\n") }
        #expect(try AgentTCPServer.validated(knownToken) == knownToken)
        #expect(AgentTCPServer.randomToken() != AgentTCPServer.randomToken())
        #expect(AgentTCPServer.randomToken().count == 64)
    }

    @Test("listening off loopback is refused without the flag; with it, the agent logs a warning")
    func nonLoopback() throws {
        #expect(throws: TCPListenerError.notLoopback(address: "0.0.0.0")) { try TCPListener(address: "0.0.0.0", port: 0) }
        #expect(throws: TCPListenerError.badAddress("localhost")) { try TCPListener(address: "localhost", port: 0) }
        let loopback = try TCPListener(address: "127.0.0.1", port: 0)
        #expect(loopback.port > 0 && loopback.isLoopback)
        loopback.close()
        let log = LogLines()
        let fixture = try Fixture(
            name: secretHostName, tcp: InspectorTCPOptions(port: 0, address: "0.0.0.0", allowNonLoopback: true, log: log.log))
        defer { fixture.stop() }
        #expect(log.lines.first?.contains("WARNING") == true)
        #expect(log.lines.first?.contains("NOT loopback") == true)
        #expect(log.lines.first?.contains(fixture.agent.tcpEndpoint?.token ?? "-") == false)
        #expect(throws: TCPListenerError.self) {
            try Fixture(name: secretHostName, tcp: InspectorTCPOptions(port: 0, address: "0.0.0.0", log: log.log)).stop()
        }
    }

    @Test("InspectorSession attaches over TCP with the token, and a wrong one is refused in words that say what to do")
    func session() async throws {
        let fixture = try tcpFixture(token: knownToken)
        defer { fixture.stop() }
        let port = try #require(fixture.agent.tcpEndpoint?.port)
        let name = try await onThread {
            let session = try InspectorSession(endpoint: .tcp(host: "127.0.0.1", port: port, token: knownToken), subscribe: false)
            defer { session.close() }
            _ = try session.run(.ping)
            return session.hello.host.name
        }
        #expect(name == secretHostName)
        let error = try await onThread { () -> String in
            do {
                _ = try InspectorSession(endpoint: .tcp(host: "127.0.0.1", port: port, token: "fedcba9876543210fedcba9876543210"), subscribe: false)
                return "attached"
            } catch {
                return "\(error)"
            }
        }
        #expect(error.contains("the token was refused"))
        #expect(error.contains("bridge-inspector: attach over USB"))
    }

    @Test("--connect forms: HOST:PORT, [::1]:PORT, tcp://HOST:PORT?token=T, and the token from the environment")
    func endpointParsing() throws {
        #expect(try InspectorEndpoint.parse(connect: "127.0.0.1:9123", token: "t1", environment: [:]) == .tcp(host: "127.0.0.1", port: 9123, token: "t1"))
        #expect(try InspectorEndpoint.parse(connect: "[::1]:9123", token: "t1", environment: [:]) == .tcp(host: "::1", port: 9123, token: "t1"))
        #expect(try InspectorEndpoint.parse(connect: "tcp://127.0.0.1:9123?token=t2", token: nil, environment: [:]) == .tcp(host: "127.0.0.1", port: 9123, token: "t2"))
        #expect(
            try InspectorEndpoint.parse(connect: "127.0.0.1:9123", token: nil, environment: ["BRIDGE_INSPECTOR_TOKEN": "t3"])
                == .tcp(host: "127.0.0.1", port: 9123, token: "t3"))
        #expect(throws: InspectorEndpointError.missingToken) { try InspectorEndpoint.parse(connect: "127.0.0.1:9123", token: nil, environment: [:]) }
        #expect(throws: InspectorEndpointError.tokenHasSpace) { try InspectorEndpoint.parse(connect: "127.0.0.1:9123", token: "t1\n", environment: [:]) }
        #expect(throws: InspectorEndpointError.badAddress("9123")) { try InspectorEndpoint.parse(connect: "9123", token: "t", environment: [:]) }
        #expect(throws: InspectorEndpointError.badAddress("127.0.0.1:70000")) { try InspectorEndpoint.parse(connect: "127.0.0.1:70000", token: "t", environment: [:]) }
        #expect("\(InspectorEndpoint.tcp(host: "127.0.0.1", port: 9123, token: "secret"))" == "tcp://127.0.0.1:9123")
    }
}
