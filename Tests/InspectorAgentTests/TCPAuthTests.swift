@testable import AgentTesting
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
        #expect(endpoint.connectLine == "bridge-inspector: attach over USB: iproxy \(endpoint.port) \(endpoint.port), then BRIDGE_INSPECTOR_TOKEN=\(endpoint.token) bridge-inspector --connect 127.0.0.1:\(endpoint.port)")
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

    @Test("refusals are sent further and further apart (0.1 s doubling), shared across connections, to the millisecond; the right token is let in at once meanwhile")
    func pacedRefusals() throws {
        let log = LogLines()
        let gate = AgentAuthGate(token: knownToken, log: log.log)
        let agent = try EmbeddedAgent(gate: gate, name: secretHostName)
        defer { agent.stop() }
        let start = agent.now
        // Five connections, all wrong, sent at once: each is judged at once.
        let clients = (0..<5).map { _ in agent.connect(.tcp) }
        for (attempt, client) in clients.enumerated() {
            client.send(#"{"kind":"auth","token":"wrong-token-number-\#(attempt)"}"#)
        }
        agent.run()
        #expect(gate.failures == 5)
        // The right token, while four refusals wait for their time: let in at once.
        let right = agent.connect(.tcp)
        right.send(#"{"kind":"auth","token":"\#(knownToken)"}"#)
        agent.run()
        #expect(try right.readFrames().map(\.kind) == ["hello"])
        #expect(agent.now == start)
        #expect(gate.failures == 0)
        // One refusal at once, then one per delay earned by the failures before it.
        let expectedOffsets = [0, 0.1, 0.3, 0.7, 1.5]
        var refused = 0
        for (index, offset) in expectedOffsets.enumerated() {
            if index > 0 {
                let deadline = try #require(agent.nextDeadline)
                #expect(abs(deadline.timeIntervalSince(start) - offset) < 1e-9, "refusal \(index) due at \(deadline.timeIntervalSince(start)) s")
                agent.advanceTime(by: deadline.timeIntervalSince(agent.now) - 0.001)
                #expect(clients.count(where: \.isClosedByAgent) == refused, "refusal \(index) came early")
                agent.advanceToNextDeadline()
            }
            refused += 1
            #expect(clients.count(where: \.isClosedByAgent) == refused, "refusal \(index) at \(offset) s")
        }
        for client in clients {
            #expect(try client.readFrames().map(\.errorCode) == ["auth_failed"])
        }
        #expect(!right.isClosedByAgent)
        // Refusals are logged at most every 3 s, with how many there were: one line for the
        // first, then one for the four since and the next.
        #expect(log.lines.filter { $0.contains("refused") } == [
            "bridge-inspector: refused a TCP connection without a valid token (1 in a row; this line is written at most every 3 s)"
        ])
        agent.advanceTime(by: 3)
        let later = agent.connect(.tcp)
        later.send(#"{"kind":"auth","token":"wrong-again-0123456789"}"#)
        agent.run()
        #expect(log.lines.filter { $0.contains("refused") }.last
            == "bridge-inspector: refused 5 TCP connections without a valid token (1 in a row; this line is written at most every 3 s)")
        // The token is in no log line.
        #expect(!log.lines.contains { $0.contains(knownToken) })
    }

    @Test("when the places for unauthenticated connections are full, a newcomer displaces a refused one first (told its refusal), else the oldest waiting (told why)")
    func displacement() throws {
        var limits = AgentLimits()
        limits.maxClients = 4  // two places for connections that have not authenticated
        let gate = AgentAuthGate(token: knownToken, log: LogLines().log, firstDelaySeconds: 3_600, maximumDelaySeconds: 3_600)
        let agent = try EmbeddedAgent(limits: limits, gate: gate, name: secretHostName)
        defer { agent.stop() }
        #expect(limits.maxClientsAwaitingAuth == 2)
        // Two wrong tokens: the first refused at once, the second waits an hour for its refusal.
        let first = agent.connect(.tcp)
        first.send(#"{"kind":"auth","token":"wrong-token-number-1"}"#)
        agent.run()
        #expect(try first.readFrames().map(\.errorCode) == ["auth_failed"])
        let refusing = agent.connect(.tcp)
        refusing.send(#"{"kind":"auth","token":"wrong-token-number-2"}"#)
        agent.run()
        #expect(!refusing.isClosedByAgent)
        let silent = agent.connect(.tcp)
        agent.run()
        // Full: the next one displaces the refused connection, which is told its refusal now.
        let second = agent.connect(.tcp)
        agent.run()
        #expect(refusing.isClosedByAgent)
        #expect(try refusing.readFrames().map(\.errorCode) == ["auth_failed"])
        #expect(!silent.isClosedByAgent)
        // Full again, with no refused one: the oldest waiting goes, told why, without host data.
        let right = agent.connect(.tcp)
        agent.run()
        #expect(silent.isClosedByAgent)
        let frames = try silent.readFrames()
        #expect(frames.map(\.errorCode) == ["too_many_waiting"])
        #expect(frames.first?.errorMessage?.contains("too many connections are waiting to authenticate") == true)
        expectNoHostData(frames.map(\.text).joined(separator: "\n"), pid: Int(ProcessInfo.processInfo.processIdentifier))
        #expect(!second.isClosedByAgent)
        // The newest, with the right token, is let in at once.
        right.send(#"{"kind":"auth","token":"\#(knownToken)"}"#)
        agent.run()
        #expect(try right.readFrames().map(\.kind) == ["hello"])
    }

    @Test("while a refusal waits for its time, the agent's loop is not blocked: Unix-socket clients and the right token attach and are answered")
    func pacingDoesNotBlock() async throws {
        var options = InspectorTCPOptions(port: 0, token: knownToken, log: LogLines().log)
        // The next refusal, after one failure, is an hour away.
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
        try waiting.send(#"{"kind":"auth","token":"fedcba9876543210fedcba9876543211"}"#)
        // Served from start to finish while that refusal waits; it has still received nothing.
        let (unix, hello, _) = try await fixture.client(subscribe: true)
        defer { unix.close() }
        #expect(hello.json["host"]?["name"]?.stringValue == secretHostName)
        let (_, reply) = try await unix.command("u1", "ping")
        #expect(reply.ok == true)
        let right = try tcpClient(fixture)
        defer { right.close() }
        try right.send(#"{"kind":"auth","token":"\#(knownToken)"}"#)
        let (tcpHello, _) = try await right.handshake(subscribe: false)
        #expect(tcpHello.json["host"]?["name"]?.stringValue == secretHostName)
        #expect(try !waiting.isClosedByPeer())
        waiting.patience = .milliseconds(1)
        await #expect(throws: TestTimeout.self) { _ = try await waiting.nextLine() }
    }

    @Test("connections waiting to authenticate take at most half the slots; one more displaces the oldest, which is told why; Unix clients still attach")
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
        let displaced = try await silent[0].readUntilClosed()
        #expect(displaced.map(\.errorCode) == ["too_many_waiting"])
        #expect(fixture.agent.clientCount == cap)
        try oneMore.send(#"{"kind":"auth","token":"\#(knownToken)"}"#)
        let (hello, _) = try await oneMore.handshake(subscribe: false)
        #expect(hello.json["host"]?["name"]?.stringValue == secretHostName)
        let unix = try await fixture.client(subscribe: false)
        defer { unix.client.close() }
        #expect(unix.hello.json["host"]?["name"]?.stringValue == secretHostName)
    }

    @Test("strangers cycling wrong tokens on more connections than the places for them cannot keep the right token out: 10 attaches of 10, and every stranger is told why")
    func crowdOfStrangers() async throws {
        let fixture = try tcpFixture(token: knownToken)
        defer { fixture.stop() }
        let port = try #require(fixture.agent.tcpEndpoint?.port)
        let cap = Fixture.limits().maxClientsAwaitingAuth
        let strangers = StrangerCrowd(port: port, count: cap + 2)
        let crowd = Task.detached { await strangers.run() }
        // The strangers fill every place, and are refused over and over.
        #expect(await eventually { fixture.agent.clientCount == cap })
        #expect(await eventually { strangers.refusals >= 2 * (cap + 2) })
        var attached: [String] = []
        for _ in 0..<10 {
            let outcome = try await onThread { () -> String in
                do {
                    let session = try InspectorSession(
                        endpoint: .tcp(host: "127.0.0.1", port: port, token: knownToken), subscribe: false, timeout: 5)
                    defer { session.close() }
                    _ = try session.run(.ping, timeout: 5)
                    return session.hello.host.name
                } catch {
                    return "\(error)"
                }
            }
            attached.append(outcome)
        }
        strangers.stop()
        await crowd.value
        #expect(attached == Array(repeating: secretHostName, count: 10))
        // No stranger's connection was closed without a word.
        #expect(strangers.silentCloses == 0)
        #expect(Set(strangers.codes).isSubset(of: ["auth_failed", "too_many_waiting"]), "\(Set(strangers.codes))")
    }

    @Test("the pause between refusals grows with failures and is capped")
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

    @Test("InspectorSession turned away for a crowd says so in the agent's words, not that the host went away")
    func sessionTurnedAway() async throws {
        // A listener that answers as an agent displacing this connection would.
        let listener = try TCPListener(address: "127.0.0.1", port: 0)
        defer { listener.close() }
        let port = listener.port
        let refusal = Array(#"{"kind":"reply","id":null,"ok":false,"error":{"code":"too_many_waiting","message":"\#(AgentAuthGate.crowdedMessage)"}}"#.utf8) + [0x0A]
        async let served: Bool = onThread {
            guard try Poll.wait(descriptor: listener.rawValue, for: .readable, timeoutMilliseconds: 10_000).contains(.readable),
                let connection = try listener.accept()
            else { return false }
            defer { connection.close() }
            _ = try connection.read(upTo: 4_096, timeoutMilliseconds: 10_000)
            try connection.writeAll(refusal)
            return true
        }
        let error = try await onThread { () -> String in
            do {
                _ = try InspectorSession(endpoint: .tcp(host: "127.0.0.1", port: port, token: knownToken), subscribe: false)
                return "attached"
            } catch {
                return "\(error)"
            }
        }
        #expect(try await served)
        #expect(error == "the host refused the connection: \(AgentAuthGate.crowdedMessage)")
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

/// Strangers on the TCP port, each on a thread of its own, connecting and sending a wrong token
/// over and over until stopped; they count the refusals and what each said.
final class StrangerCrowd: Sendable {
    private struct Tally {
        var stopped = false
        var codes: [String] = []
        var silentCloses = 0
    }

    private let port: Int
    private let count: Int
    private let tally = Locked(Tally())

    init(port: Int, count: Int) {
        self.port = port
        self.count = count
    }

    /// Error codes of the refusals so far.
    var codes: [String] { tally.current.codes }
    /// Refusals so far.
    var refusals: Int { tally.current.codes.count }
    /// Connections closed by the agent without a frame.
    var silentCloses: Int { tally.current.silentCloses }

    func stop() { tally.withLock { $0.stopped = true } }

    /// Runs every stranger until ``stop()``.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { await DedicatedThread.run(name: "stranger-\(index)") { self.cycle(index) } }
            }
        }
    }

    private func cycle(_ index: Int) {
        let line = Array(#"{"kind":"auth","token":"wrong-token-of-stranger-\#(index)"}"#.utf8) + [0x0A]
        while !tally.current.stopped {
            guard let connection = try? UnixConnection.connectTCP(host: "127.0.0.1", port: port, timeoutMilliseconds: 2_000) else {
                continue
            }
            defer { connection.close() }
            guard (try? connection.writeAll(line, timeoutMilliseconds: 2_000)) != nil else { continue }
            var received: [UInt8] = []
            // Until the agent closes, or at most 10 s (the longest refusal pace is 3 s).
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, !tally.current.stopped {
                guard let bytes = try? connection.read(upTo: 4_096, timeoutMilliseconds: 100) else { break }
                received += bytes
            }
            guard !tally.current.stopped else { return }
            let frame = (try? JSONDecoder().decode(JSONValue.self, from: Data(received.prefix { $0 != 0x0A })))
            tally.withLock { tally in
                if let code = frame?["error"]?["code"]?.stringValue {
                    tally.codes.append(code)
                } else {
                    tally.silentCloses += 1
                }
            }
        }
    }
}
