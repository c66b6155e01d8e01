#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AgentTesting
import BridgeCore
import Foundation
import TestSupport
import SocketSupport
import ThreadSupport

// A deliberately dumb inspector client that speaks the documented protocol byte for byte:
// it writes raw bytes and reads raw lines, and decodes each line only into a generic JSON value.
// It never uses InspectorSession or AgentFrame, so it checks the wire format, not our own decoder.
//
// Reads are non-blocking and, when nothing is there, sleep 1 ms with `Task.sleep`: a test on the
// main actor that awaits a reply therefore leaves the main actor free for the agent, which runs
// every command there. Every wait is bounded (`TestTimeout`); no test asserts on elapsed time.

/// A wait in a test helper ran past its bound: the awaited thing never happened.
struct TestTimeout: Error, CustomStringConvertible {
    let description: String
}

/// One frame received from the agent: its exact bytes (without the newline) and its JSON.
struct Frame: Sendable, CustomStringConvertible {
    let raw: [UInt8]
    let json: JSONValue

    init(raw: [UInt8]) throws {
        self.raw = raw
        self.json = try JSONDecoder().decode(JSONValue.self, from: Data(raw))
    }

    var text: String { String(decoding: raw, as: UTF8.self) }
    var description: String { text }

    var kind: String? { json["kind"]?.stringValue }
    var seq: Int? { json["seq"]?.int }
    var id: String? { json["id"]?.stringValue }
    var ok: Bool? { json["ok"]?.boolValue }
    var errorCode: String? { json["error"]?["code"]?.stringValue }
    var errorMessage: String? { json["error"]?["message"]?.stringValue }
    /// For events: `event.type`.
    var eventType: String? { json["event"]?["type"]?.stringValue }
    /// For `traffic`/`malformed`/`lastError`/`pendingAdded` events: `event.record`.
    var record: JSONValue? { json["event"]?["record"] }
    var isReply: Bool { kind == "reply" }
    var isEvent: Bool { kind == "event" }
}

extension EmbeddedConnection {
    /// Reads every whole frame the agent has written so far (which frees the buffer).
    func readFrames() throws -> [Frame] {
        try readLines().map(Frame.init(raw:))
    }
}

extension JSONValue {
    /// The number as an integer, when it is one.
    var int: Int? {
        guard let number = numberValue, number == number.rounded() else { return nil }
        return Int(number)
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// `value[0]` for arrays.
    subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

/// A raw protocol client over one Unix socket connection. Use it from one task at a time.
final class RawClient: @unchecked Sendable {
    let connection: UnixConnection
    private var framer = LineFramer(maximumLineLength: 128 * 1024 * 1024)
    private var lines: [[UInt8]] = []
    private var atEndOfFile = false
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    /// How long one wait may take before it fails the test (a bound, not an expectation).
    var patience: Duration = .seconds(20)

    init(connection: UnixConnection) {
        self.connection = connection
    }

    /// Connects to the socket at `path` (non-blocking).
    static func connect(_ path: String) throws -> RawClient {
        RawClient(connection: try UnixConnection.connect(to: path, timeoutMilliseconds: 5_000))
    }

    func close() {
        connection.close()
    }

    // MARK: Writing

    func write(_ bytes: [UInt8]) throws {
        try connection.writeAll(bytes, timeoutMilliseconds: 10_000)
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Writes `text` plus a newline.
    func send(_ line: String) throws {
        try write(line + "\n")
    }

    /// Sends the client `hello`.
    func sendHello(protocol version: Int = 1, subscribe: Bool = true, client: String = "raw-test-client") throws {
        try send(#"{"kind":"hello","protocol":\#(version),"client":"\#(client)","subscribe":\#(subscribe)}"#)
    }

    /// Sends a command frame; `args` is JSON text or nil.
    func sendCommand(_ id: String, _ name: String, args: String? = nil) throws {
        if let args {
            try send(#"{"kind":"command","id":"\#(id)","command":"\#(name)","args":\#(args)}"#)
        } else {
            try send(#"{"kind":"command","id":"\#(id)","command":"\#(name)"}"#)
        }
    }

    // MARK: Reading

    /// Reads whatever is available now into `lines`; returns false when nothing was there.
    private func pump() throws -> Bool {
        guard !atEndOfFile else { return false }
        let result: UnixConnection.ReadResult
        do {
            result = try readBuffer.withUnsafeMutableBytes { try connection.read(into: $0) }
        } catch let error as SocketSystemError where error.code == ECONNRESET {
            atEndOfFile = true
            return true
        }
        switch result {
        case .wouldBlock:
            return false
        case .endOfFile:
            atEndOfFile = true
            return true
        case .bytes(let count):
            let frames = readBuffer.withUnsafeBytes { framer.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for frame in frames {
                if case .line(let line) = frame { lines.append(line) }
            }
            return true
        }
    }

    /// The next line, or nil at end of file. Throws `TestTimeout` when nothing arrives in time.
    func nextLine() async throws -> [UInt8]? {
        let deadline = ContinuousClock.now + patience
        while true {
            if !lines.isEmpty { return lines.removeFirst() }
            if atEndOfFile { return nil }
            if try pump() { continue }
            guard ContinuousClock.now < deadline else {
                throw TestTimeout(description: "no frame from the agent within \(patience)")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The next line, or nil at end of file, waiting in `poll` (for use on a dedicated thread).
    func nextLineBlocking() throws -> [UInt8]? {
        let deadline = ContinuousClock.now + patience
        while true {
            if !lines.isEmpty { return lines.removeFirst() }
            if atEndOfFile { return nil }
            if try pump() { continue }
            guard ContinuousClock.now < deadline else {
                throw TestTimeout(description: "no frame from the agent within \(patience)")
            }
            _ = try Poll.wait(descriptor: connection.rawValue, for: .readable, timeoutMilliseconds: 50)
        }
    }

    /// The next frame, waiting in `poll` (for use on a dedicated thread); throws at end of file.
    func nextBlocking() throws -> Frame {
        guard let line = try nextLineBlocking() else {
            throw TestTimeout(description: "the agent closed the connection while a frame was expected")
        }
        return try Frame(raw: line)
    }

    /// The next frame; throws at end of file or on timeout.
    func next() async throws -> Frame {
        guard let line = try await nextLine() else {
            throw TestTimeout(description: "the agent closed the connection while a frame was expected")
        }
        return try Frame(raw: line)
    }

    /// Frames up to and including the first that matches; returns the ones before it and the match.
    func next(until match: @Sendable (Frame) -> Bool) async throws -> (before: [Frame], match: Frame) {
        var before: [Frame] = []
        while true {
            let frame = try await next()
            if match(frame) { return (before, frame) }
            before.append(frame)
        }
    }

    /// Waits for the reply with `id`; returns the frames that came before it too.
    func reply(_ id: String) async throws -> (before: [Frame], reply: Frame) {
        let (before, match) = try await next { $0.isReply && $0.id == id }
        return (before, match)
    }

    /// Sends a command and waits for its reply.
    @discardableResult
    func command(_ id: String, _ name: String, args: String? = nil) async throws -> (before: [Frame], reply: Frame) {
        try sendCommand(id, name, args: args)
        return try await reply(id)
    }

    /// Reads frames until the agent closes the connection; returns them.
    func readUntilClosed() async throws -> [Frame] {
        var frames: [Frame] = []
        while let line = try await nextLine() {
            frames.append(try Frame(raw: line))
        }
        return frames
    }

    /// Whether the agent has closed the connection, reading (and keeping) whatever came first.
    func isClosedByPeer() throws -> Bool {
        while try pump() {}
        return atEndOfFile
    }

    /// Reads the agent's hello, sends ours and, when subscribing, reads the snapshot.
    func handshake(subscribe: Bool = true) async throws -> (hello: Frame, snapshot: Frame?) {
        let hello = try await next()
        guard hello.kind == "hello" else { throw TestSetupError(description: "expected hello, got \(hello)") }
        try sendHello(subscribe: subscribe)
        guard subscribe else { return (hello, nil) }
        let snapshot = try await next()
        guard snapshot.kind == "snapshot" else { throw TestSetupError(description: "expected snapshot, got \(snapshot)") }
        return (hello, snapshot)
    }
}

/// A counter shared between a test and a reader thread.
final class Progress: Sendable {
    private let count = Locked(0)

    var value: Int { count.current }

    func set(_ value: Int) {
        count.withLock { $0 = value }
    }
}
