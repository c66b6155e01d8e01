import AgentTesting
import BridgeCore
import Foundation
import InspectorAgent
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
import ThreadSupport

/// Runs `body` with a fresh session on a thread of its own (a session blocks while it waits, and
/// the agent needs the main actor free to run commands).
private func withSession<T: Sendable>(
    _ path: String, subscribe: Bool, _ body: @escaping @Sendable (InspectorSession) throws -> T
) async throws -> T {
    try await onThread {
        let session = try InspectorSession(socketPath: path, subscribe: subscribe, clientName: "session-test")
        defer { session.close() }
        return try body(session)
    }
}

/// How long a session waits for a command's reply, in seconds: the command runs on the main
/// actor, which tests running beside these share; on a loaded two-core machine the library's
/// default 10 s passed before it got there. A reply that comes ends the wait at once.
private let commandBound = 120.0

@MainActor
@Suite("InspectorSession against the agent")
struct SessionTests {
    @Test("a session sees the hello, the snapshot and live events, decoded")
    func snapshotAndEvents() async throws {
        let fixture = try LiveAgent { host in
            host.receive(text: LiveAgent.messageText(action: "custom.ask", id: "p-0"))
        }
        defer { fixture.stop() }
        let path = fixture.socketPath
        let ready = Locked(0)
        let seen = Task {
            try await withSession(path, subscribe: true) { session -> [String] in
                var seen = ["hello \(session.hello.host.name) \(session.hello.protocol) \(session.hello.limits.maxClients)"]
                // Bounds, not waits: the events come once the test's main actor has seen `ready`
                // and fed the host, which on a busy machine can take minutes (the main actor is
                // shared by every test running beside this one: a 10 s bound failed there, and a
                // 60 s one with builds running too, loaded run 16).
                guard case .snapshot(let seq, let state)? = try session.nextFrame(timeout: 600) else { return ["no snapshot"] }
                seen.append("snapshot \(seq) pending \(state.pending.map(\.correlationId)) slots \(state.slots.map(\.kind.rawValue))")
                ready.withLock { $0 = 1 }
                while let frame = try session.nextFrame(timeout: 600) {
                    guard case .event(let seq, let event) = frame else { continue }
                    switch event {
                    case .traffic(let record): seen.append("\(seq) traffic \(record.direction.rawValue) \(record.message.correlationId)")
                    case .pendingAdded(let pending): seen.append("\(seq) pendingAdded \(pending.correlationId)")
                    case .malformed(let record): seen.append("\(seq) malformed \(record.bytes)")
                    case .lastError(let record): seen.append("\(seq) lastError cause \(record.cause.map(String.init) ?? "nil")")
                    default: seen.append("\(seq) other")
                    }
                    if seen.count == 6 { break }
                }
                return seen
            }
        }
        #expect(await eventually { ready.current == 1 })
        fixture.receive(LiveAgent.messageText(action: "custom.ask", id: "p-1"))
        fixture.receive("{oops")
        let lines = try await seen.value
        #expect(lines == [
            "hello test-host 1 16",
            "snapshot 1 pending [\"p-0\"] slots [\"document\", \"selfie\"]",
            "2 traffic received p-1",
            "3 pendingAdded p-1",
            "4 malformed 5",
            "5 lastError cause 4",
        ])
    }

    @Test("run(.respond) returns the result and the exact message the host sent")
    func respondThroughSession() async throws {
        let fixture = try LiveAgent()
        defer { fixture.stop() }
        fixture.receive(LiveAgent.messageText(action: "custom.ask", id: "p-1"))
        let reply = try await withSession(fixture.socketPath, subscribe: false) { session in
            try session.run(.respond(.init(correlationId: "p-1", status: .success, data: ["answer": 42])), timeout: commandBound)
        }
        #expect(try reply.result.get() == ["correlationId": "p-1"])
        #expect(reply.sent == [try #require(fixture.delivered.last)])
        #expect(reply.sent.first?.payload.data == ["answer": 42])
    }

    @Test("every command through InspectorSession, and its errors")
    func everyCommand() async throws {
        let fixture = try LiveAgent()
        defer { fixture.stop() }
        fixture.makeSlotWaitForCompletion(.document)
        fixture.makeSlotWaitForCompletion(.selfie)
        fixture.receive(LiveAgent.messageText(action: "camera.document.capture", id: "d-1"))
        fixture.receive(LiveAgent.messageText(action: "camera.selfie.capture", id: "s-1"))
        let codes = try await withSession(fixture.socketPath, subscribe: false) { session -> [String] in
            let commands: [InspectorCommand] = [
                .sendEvent(.init(name: "host.ping")),
                .completeSlot(.init(slot: .document, result: .success(imageBase64: nil, width: 2, height: 2, mimeType: nil))),
                .completeSlot(.init(slot: .document, result: .cancelled(reason: "again"))),
                .cancelSlot(.init(slot: .selfie)),
                .setSlotEnabled(.init(slot: .selfie, enabled: false)),
                .setSlotPermission(.init(slot: .document, permissionState: .granted)),
                .clearError,
                .clearLog,
                .snapshot,
                .ping,
                .respond(.init(correlationId: "ghost", status: .success)),
            ]
            return try commands.map { command in
                let reply = try session.run(command, timeout: commandBound)
                switch reply.result {
                case .success: return "\(command.name) ok \(reply.sent.count)"
                case .failure(let error): return "\(command.name) \(error.code)"
                }
            }
        }
        #expect(codes == [
            "sendEvent ok 1",
            "completeSlot ok 1",
            "completeSlot slot_idle",
            "cancelSlot ok 1",
            "setSlotEnabled ok 0",
            "setSlotPermission ok 0",
            "clearError ok 0",
            "clearLog ok 0",
            "snapshot ok 0",
            "ping ok 0",
            "respond not_pending",
        ])
        #expect(fixture.host.selfieCapture.isEnabled == false)
        #expect(fixture.host.documentCapture.permissionState == .granted)
        #expect(fixture.delivered.map(\.payload.action) == ["host.ping", "camera.document.capture", "camera.selfie.capture"])
    }

    @Test("two sessions on two threads racing to answer one request: exactly one succeeds")
    func racingSessions() async throws {
        let fixture = try LiveAgent()
        defer { fixture.stop() }
        let path = fixture.socketPath
        for round in 0..<10 {
            let id = "race-\(round)"
            fixture.receive(LiveAgent.messageText(action: "custom.ask", id: id))
            async let first = withSession(path, subscribe: false) { session in
                try session.run(.respond(.init(correlationId: id, status: .success)), timeout: commandBound).result
            }
            async let second = withSession(path, subscribe: false) { session in
                try session.run(.respond(.init(correlationId: id, status: .success)), timeout: commandBound).result
            }
            let results = try await [first, second]
            let wins = results.filter { if case .success = $0 { return true } else { return false } }
            let losses = results.compactMap { result -> String? in
                if case .failure(let error) = result { return error.code } else { return nil }
            }
            #expect(wins.count == 1)
            #expect(losses == ["already_answered"])
            #expect(fixture.delivered.filter { $0.correlationId == id }.count == 1)
        }
    }
}
