import Foundation
import InspectorClient
import InspectorProtocol
import SocketSupport
import TestSupport
import Testing

private let hostJSON = #"{"environment":"ios","hostVersion":"1.0","name":"machine-host","pid":7,"startedAt":1000}"#
private let helloLine = #"{"kind":"hello","protocol":1,"agent":"a","host":\#(hostJSON),"features":[],"limits":{"maxFrameBytes":10,"maxClients":1}}"#
private let snapshotLine = #"{"kind":"snapshot","seq":1,"state":{"host":\#(hostJSON),"journeyAttached":true,"lastError":null,"errorHistory":[],"messages":[],"malformed":[],"pending":[],"slots":[],"customCapabilities":[],"counts":{"evicted":0,"malformed":0,"received":0,"sent":0}}}"#
private let eventLine = #"{"kind":"event","seq":2,"event":{"type":"pendingRemoved","correlationId":"r1"}}"#
private let gapLine = #"{"kind":"gap","from":3,"to":4}"#

private let socketPath = "/tmp/machine.sock"
private let unixEndpoint = InspectorEndpoint.unixSocket(path: socketPath)
private let tcpEndpoint = InspectorEndpoint.tcp(host: "127.0.0.1", port: 9123, token: "s3cret-token")

/// A refusal as the agent writes it: a reply without an id, carrying an error.
private func refusalLine(_ code: InspectorErrorCode, _ message: String = "refused") -> String {
    #"{"kind":"reply","id":null,"ok":false,"error":{"code":"\#(code.rawValue)","message":"\#(message)"}}"#
}

private func bytes(_ lines: String...) -> [UInt8] {
    Array(lines.map { $0 + "\n" }.joined().utf8)
}

/// An action as one comparable line.
private func summary(_ action: ClientConnectionStateMachine.Action) -> String {
    switch action {
    case .read: return "read"
    case .sendHello(let hello): return "sendHello \(hello.host.name) \(hello.protocol)"
    case .deliverFrames: return "deliverFrames"
    case .close(let error): return "close \(summary(error))"
    }
}

/// An error as one comparable line: its case and what it names.
private func summary(_ error: InspectorClientError) -> String {
    switch error {
    case .closed(let path): return "closed \(path)"
    case .notAnAgent(let path): return "notAnAgent \(path)"
    case .handshakeTimedOut(let path): return "handshakeTimedOut \(path)"
    case .refused(let error): return "refused \(error.code)"
    case .tokenRefused(let endpoint): return "tokenRefused \(endpoint)"
    case .badFrame: return "badFrame"
    case .noHost(let path, _): return "noHost \(path)"
    case .commandTimedOut(let command): return "commandTimedOut \(command)"
    }
}

/// The kinds of the frames waiting, taken in order, each with whether its line is the one sent.
private func takeAll(_ machine: inout ClientConnectionStateMachine, sent lines: [String]) -> [String] {
    var taken: [String] = []
    while let received = machine.nextFrame() {
        let kind: String
        switch received.frame {
        case .hello: kind = "hello"
        case .snapshot: kind = "snapshot"
        case .event: kind = "event"
        case .gap: kind = "gap"
        case .reply: kind = "reply"
        }
        let exact = lines.contains(String(decoding: received.line, as: UTF8.self))
        taken.append(exact ? kind : "\(kind) (line changed)")
    }
    return taken
}

@Suite("The client's connection state machine: bytes in, hello, frames or the reason out")
struct ClientConnectionStateMachineTests {
    @Test("a hello split one byte at a time: nothing to act on until its newline, then send ours")
    func helloByteByByte() {
        var machine = ClientConnectionStateMachine(endpoint: unixEndpoint)
        let chunk = bytes(helloLine)
        var actions: [String] = []
        for byte in chunk { actions.append(summary(machine.bytesReceived([byte]))) }
        #expect(actions.dropLast().allSatisfy { $0 == "read" })
        #expect(actions.last == "sendHello machine-host 1")
        #expect(machine.hello?.host.pid == 7)
        #expect(takeAll(&machine, sent: [helloLine]) == ["hello"])
        #expect(machine.failure == nil)
    }

    @Test("a hello split across chunks at every point gives the same greeting")
    func helloSplitAnywhere() {
        let chunk = bytes(helloLine, eventLine)
        for split in 1..<chunk.count {
            var machine = ClientConnectionStateMachine(endpoint: unixEndpoint)
            let first = summary(machine.bytesReceived(Array(chunk[..<split])))
            let second = summary(machine.bytesReceived(Array(chunk[split...])))
            let helloEnd = helloLine.utf8.count + 1
            if split < helloEnd {
                #expect(first == "read", "split at \(split)")
                #expect(second == "sendHello machine-host 1", "split at \(split)")
            } else {
                #expect(first == "sendHello machine-host 1", "split at \(split)")
                #expect(second == (split == chunk.count ? "read" : "deliverFrames"), "split at \(split)")
            }
            #expect(takeAll(&machine, sent: [helloLine, eventLine]) == ["hello", "event"], "split at \(split)")
        }
    }

    @Test("hello and early frames in one chunk: the hello first, then every frame in order, each with its exact line")
    func helloWithEarlyFrames() {
        var machine = ClientConnectionStateMachine(endpoint: unixEndpoint)
        #expect(summary(machine.bytesReceived(bytes(helloLine, snapshotLine, eventLine))) == "sendHello machine-host 1")
        #expect(machine.hasFrames)
        #expect(takeAll(&machine, sent: [helloLine, snapshotLine, eventLine]) == ["hello", "snapshot", "event"])
        #expect(!machine.hasFrames)
        // Later frames are delivered, a partial one held until its end.
        let gap = Array((gapLine + "\n").utf8)
        #expect(summary(machine.bytesReceived(Array(gap[..<5]))) == "read")
        #expect(summary(machine.bytesReceived(Array(gap[5...]))) == "deliverFrames")
        #expect(takeAll(&machine, sent: [gapLine]) == ["gap"])
    }

    @Test(
        "a refusal instead of the hello: a refused token has its own error (naming the endpoint, never the token), anything else is `refused`",
        arguments: [
            (InspectorErrorCode.tooManyClients, "refused too_many_clients"),
            (.tooManyWaiting, "refused too_many_waiting"),
            (.authFailed, "tokenRefused tcp://127.0.0.1:9123"),
            (.authRequired, "tokenRefused tcp://127.0.0.1:9123"),
        ])
    func refusal(code: InspectorErrorCode, expected: String) {
        var machine = ClientConnectionStateMachine(endpoint: tcpEndpoint)
        let action = machine.bytesReceived(bytes(refusalLine(code)))
        #expect(summary(action) == "close \(expected)")
        if case .close(let error) = action { #expect(!error.description.contains("s3cret")) }
        #expect(machine.hello == nil)
        #expect(!machine.hasFrames, "a refusal is not a frame")
        // Failed for good: a hello after the refusal changes nothing.
        #expect(summary(machine.bytesReceived(bytes(helloLine))) == "close \(expected)")
        #expect(machine.hello == nil)
        #expect(summary(machine.endOfFile()) == "close \(expected)")
    }

    @Test("a hello of another protocol version is refused as protocol_mismatch, naming both versions")
    func protocolMismatch() {
        var machine = ClientConnectionStateMachine(endpoint: unixEndpoint)
        let action = machine.bytesReceived(bytes(helloLine.replacingOccurrences(of: #""protocol":1"#, with: #""protocol":2"#)))
        #expect(summary(action) == "close refused protocol_mismatch")
        guard case .close(.refused(let error)) = action else { return }
        #expect(error.message.contains("protocol 2") && error.message.contains("speaks 1"))
        #expect(machine.hello == nil)
    }

    @Test(
        "before the hello, anything but a hello or a refusal means the peer is not an agent",
        arguments: [
            "SSH-2.0-OpenSSH_9.6",
            #"{"kind":"hello"}"#,
            eventLine,
            #"{"kind":"reply","id":null,"ok":true,"result":{}}"#,
            "",
        ])
    func notAnAgent(first: String) {
        var machine = ClientConnectionStateMachine(endpoint: unixEndpoint)
        #expect(summary(machine.bytesReceived(bytes(first, helloLine))) == "close notAnAgent \(socketPath)")
        #expect(machine.hello == nil)
        #expect(!machine.hasFrames)
    }

    @Test("a first line over the cap is refused as soon as the cap is passed, without waiting for its end")
    func oversizedBeforeHello() {
        var machine = ClientConnectionStateMachine(endpoint: unixEndpoint, maximumFrameBytes: 64)
        #expect(summary(machine.bytesReceived(Array(repeating: UInt8(ascii: "x"), count: 64))) == "read")
        #expect(summary(machine.bytesReceived([UInt8(ascii: "x")])) == "close notAnAgent \(socketPath)")
    }

    @Test("after the hello, a line that is not a frame ends the connection; the frames before it are still delivered")
    func garbageAfterHello() {
        var machine = ClientConnectionStateMachine(endpoint: unixEndpoint)
        _ = machine.bytesReceived(bytes(helloLine))
        _ = machine.nextFrame()
        let action = machine.bytesReceived(bytes(eventLine, "{not json", gapLine))
        #expect(summary(action) == "close badFrame")
        #expect(takeAll(&machine, sent: [eventLine]) == ["event"], "the gap after the bad line is not read")
        #expect(summary(machine.failure.map { .close($0) } ?? .read) == "close badFrame")
        #expect(machine.hello?.host.name == "machine-host", "the greeting stays known")
    }

    @Test("after the hello, a frame over the cap ends the connection as soon as the cap is passed, naming the cap")
    func oversizedAfterHello() {
        let cap = helloLine.utf8.count + 10
        var machine = ClientConnectionStateMachine(endpoint: unixEndpoint, maximumFrameBytes: cap)
        #expect(summary(machine.bytesReceived(bytes(helloLine))) == "sendHello machine-host 1")
        let action = machine.bytesReceived(Array(repeating: UInt8(ascii: "x"), count: cap + 1))
        guard case .close(.badFrame(let detail)) = action else {
            Issue.record("expected a bad frame, got \(summary(action))")
            return
        }
        #expect(detail.contains("\(cap) bytes"))
    }

    @Test("the end of the connection mid-handshake, mid-line or not, is `closed`", arguments: [0, 1, 40])
    func endOfFileMidHandshake(partial: Int) {
        var machine = ClientConnectionStateMachine(endpoint: unixEndpoint)
        #expect(summary(machine.bytesReceived(Array(helloLine.utf8.prefix(partial)))) == "read")
        #expect(summary(machine.endOfFile()) == "close closed \(socketPath)")
        #expect(machine.hello == nil)
        #expect(summary(machine.bytesReceived(bytes(helloLine))) == "close closed \(socketPath)", "nothing is read after the end")
    }

    @Test("a reset is the end of the connection, before the hello and after it, exactly as an end of file is")
    func resetIsClosed() {
        var early = ClientConnectionStateMachine(endpoint: tcpEndpoint)
        #expect(summary(early.connectionReset()) == "close closed tcp://127.0.0.1:9123")

        var reset = ClientConnectionStateMachine(endpoint: unixEndpoint)
        var ended = ClientConnectionStateMachine(endpoint: unixEndpoint)
        _ = reset.bytesReceived(bytes(helloLine, eventLine) + Array(gapLine.utf8.prefix(5)))
        _ = ended.bytesReceived(bytes(helloLine, eventLine) + Array(gapLine.utf8.prefix(5)))
        let byReset = summary(reset.connectionReset())
        let byEnd = summary(ended.endOfFile())
        #expect(byReset == "close closed \(socketPath)")
        #expect(byReset == byEnd)
        #expect(takeAll(&reset, sent: [helloLine, eventLine]) == ["hello", "event"], "frames read before the reset can be taken")
        #expect(reset.failure?.description == ended.failure?.description)
    }

    @Test("the driver's handshake time limit fails a connection still waiting for its hello, and nothing else")
    func handshakeTimeLimit() {
        var waiting = ClientConnectionStateMachine(endpoint: unixEndpoint)
        _ = waiting.bytesReceived(Array(helloLine.utf8.prefix(10)))
        #expect(summary(waiting.handshakeTimeLimitPassed()) == "close handshakeTimedOut \(socketPath)")
        #expect(summary(waiting.bytesReceived(Array(helloLine.utf8.dropFirst(10)) + [0x0A])) == "close handshakeTimedOut \(socketPath)")

        var greeted = ClientConnectionStateMachine(endpoint: unixEndpoint)
        _ = greeted.bytesReceived(bytes(helloLine))
        #expect(summary(greeted.handshakeTimeLimitPassed()) == "deliverFrames")
        _ = greeted.nextFrame()
        #expect(summary(greeted.handshakeTimeLimitPassed()) == "read")
        #expect(greeted.failure == nil)
    }
}

@Suite("Attaching over a socket: the session and the recording stream run on the same machine")
struct ClientConnectionResetTests {
    /// Attaches over TCP to a listener that takes the connection and closes it with the token
    /// unread, which makes TCP reset it; returns the error the client threw, as a summary.
    private func attachToResettingPeer(_ attach: @escaping @Sendable (InspectorEndpoint) throws -> Void) async throws -> String {
        let listener = try TCPListener(port: 0)
        defer { listener.close() }
        let endpoint = InspectorEndpoint.tcp(host: "127.0.0.1", port: listener.port, token: "t")
        async let peer: Bool = onThread {
            let deadline = ContinuousClock.now + .seconds(600)
            var accepted: UnixConnection?
            while accepted == nil, ContinuousClock.now < deadline {
                _ = try Poll.wait(descriptor: listener.rawValue, for: .readable, timeoutMilliseconds: 100)
                accepted = try listener.accept()
            }
            guard let connection = accepted else { return false }
            // Wait for the token to arrive, and close with it unread.
            while ContinuousClock.now < deadline {
                if try !Poll.wait(descriptor: connection.rawValue, for: .readable, timeoutMilliseconds: 100).isEmpty { break }
            }
            connection.close()
            return true
        }
        let outcome = try await onThread { () -> String in
            do {
                try attach(endpoint)
                return "attached"
            } catch let error as InspectorClientError {
                return summary(error)
            } catch {
                return "other error: \(error)"
            }
        }
        #expect(try await peer, "the peer accepted the connection")
        return outcome
    }

    @Test("a connection reset while attaching is `closed` for the session and for the recording stream alike")
    func resetWhileAttaching() async throws {
        let session = try await attachToResettingPeer { _ = try InspectorSession(endpoint: $0, subscribe: true, timeout: 600) }
        let stream = try await attachToResettingPeer { _ = try RawFrameStream(endpoint: $0, timeout: 600) }
        #expect(session.hasPrefix("closed tcp://127.0.0.1:"), "\(session)")
        #expect(stream.hasPrefix("closed tcp://127.0.0.1:"), "\(stream)")
    }
}
