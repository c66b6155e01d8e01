import BridgeCore
import Foundation
import InspectorAgent
import InspectorClient
import InspectorProtocol
import SocketSupport
import ThreadSupport

/// Where the large message's time goes between the journey and a client holding it decoded
/// (issue 30): the host's own decoding, the agent (its record and frame, until the frame's first
/// byte reaches a reader), the socket (until its last byte), and the client's work on the line.
///
/// The agent's part is timed with a raw reader in place of the following client (it only frames
/// what it reads); the client's part is the agent's very line taken by the client's state machine
/// in reads of 256 KiB, without a socket, in the thread's CPU time and minor page faults (the
/// fresh memory touched), which a busy machine disturbs less than wall time.
struct LargePayloadStages {
    /// Medians, in milliseconds from the start of `host.receive`: when it returned, when the first
    /// read holding the frame's bytes returned to the reader, and when the read holding its last.
    var hostReceiveMs: Double
    var firstByteMs: Double
    var lastByteMs: Double
    /// Median CPU milliseconds and minor page faults of the client's state machine taking the
    /// line in reads of 256 KiB until its decoded frame is out (framing and decoding).
    var clientLineMs: Double
    var clientLineFaults: Double
    /// Median CPU milliseconds and minor page faults of decoding the framed line alone, from its
    /// own bytes (`AgentFrame.decode(bytes:)`, as the client's machine decodes it).
    var decodeMs: Double
    var decodeFaults: Double
    /// The same through a copy of the line into `Data` (`AgentFrame.decode(_:)`), as the client's
    /// machine decoded it before.
    var decodeThroughDataMs: Double
    var decodeThroughDataFaults: Double
    var runs: Int
}

extension HostBench {
    /// Sends `message` `runs` times through a host with an agent and a raw reader, timing the
    /// agent's part, then takes the agent's line through the client's machine and decoding.
    func largePayloadStages(message: Data, runs: Int) async throws -> LargePayloadStages {
        let transport = DiscardingTransport()
        let host = makeBenchHost(transport: transport)
        let socketPath = scratch.file("large-stages.sock")
        let agent = try host.startInspector(name: "bench-stages", socketPath: socketPath, limits: limits)
        defer { agent.stop() }
        let reader = RawLineReader(minimumLength: message.count)
        reader.start(socketPath: socketPath)
        defer { reader.stop() }
        guard await waitUntil(timeout: 10, { reader.state.current.ready || reader.state.current.error != nil }), reader.state.current.ready
        else {
            throw BenchError("the stages' raw reader did not attach: \(reader.state.current.error ?? "timed out")")
        }
        var hostReceive: [Double] = []
        var firstByte: [Double] = []
        var lastByte: [Double] = []
        for _ in 0..<runs {
            reader.state.withLock { $0.arm() }
            let start = monotonicNanoseconds()
            reader.state.withLock { $0.start = start }
            host.receive(message)
            let received = monotonicNanoseconds()
            guard await waitUntil(timeout: 120, { reader.state.current.lastRead != nil || reader.state.current.error != nil }),
                let state = Optional(reader.state.current), let first = state.firstRead, let last = state.lastRead
            else {
                throw BenchError("the stages' raw reader did not receive the large message: \(reader.state.current.error ?? "timed out")")
            }
            hostReceive.append(milliseconds(from: start, to: received))
            firstByte.append(milliseconds(from: start, to: first))
            lastByte.append(milliseconds(from: start, to: last))
            try? await Task.sleep(for: .milliseconds(20))
        }
        let line = reader.state.current.line
        guard !line.isEmpty else { throw BenchError("the stages' raw reader kept no line") }
        return try Self.clientStages(
            line: line, runs: runs, hostReceiveMs: median(hostReceive), firstByteMs: median(firstByte), lastByteMs: median(lastByte))
    }

    /// The client's work on `line` (the agent's frame without its newline), `runs` times each
    /// way, alternating.
    private static func clientStages(line: [UInt8], runs: Int, hostReceiveMs: Double, firstByteMs: Double, lastByteMs: Double) throws
        -> LargePayloadStages
    {
        let hello = Array(#"{"kind":"hello","protocol":\#(WireProtocol.version),"agent":"bench","host":{"environment":"ios","hostVersion":"1.0","name":"bench","pid":7,"startedAt":1000},"features":[],"limits":{"maxFrameBytes":10,"maxClients":1}}"#.utf8) + [0x0A]
        var machine = ClientConnectionStateMachine(endpoint: .unixSocket(path: "/bench"))
        guard case .sendHello = hello.withUnsafeBytes({ machine.bytesReceived($0) }), machine.nextFrame() != nil else {
            throw BenchError("the client's machine did not take the bench's hello")
        }
        let sent = line + [0x0A]
        // Once, so that the machine's framer knows how long a line like this one is, as the
        // following client's does from the second message on.
        _ = try take(sent, into: &machine)
        var machineRuns: [(ms: Double, faults: Int)] = []
        var bytesRuns: [(ms: Double, faults: Int)] = []
        var dataRuns: [(ms: Double, faults: Int)] = []
        for _ in 0..<runs {
            machineRuns.append(try take(sent, into: &machine))
            bytesRuns.append(try threadCost { _ = try AgentFrame.decode(bytes: line) })
            dataRuns.append(try threadCost { _ = try AgentFrame.decode(Data(line)) })
        }
        func ms(_ runs: [(ms: Double, faults: Int)]) -> Double { median(runs.map(\.ms)) }
        func faults(_ runs: [(ms: Double, faults: Int)]) -> Double { median(runs.map { Double($0.faults) }) }
        return LargePayloadStages(
            hostReceiveMs: hostReceiveMs, firstByteMs: firstByteMs, lastByteMs: lastByteMs,
            clientLineMs: ms(machineRuns), clientLineFaults: faults(machineRuns), decodeMs: ms(bytesRuns), decodeFaults: faults(bytesRuns),
            decodeThroughDataMs: ms(dataRuns), decodeThroughDataFaults: faults(dataRuns), runs: runs)
    }

    /// `sent` (a line and its newline) handed to `machine` in reads of 256 KiB, and its frame
    /// taken and dropped, as the following client does.
    private static func take(_ sent: [UInt8], into machine: inout ClientConnectionStateMachine) throws -> (ms: Double, faults: Int) {
        var frames = 0
        let result = threadCost {
            inReads(of: 256 * 1024, sent) { _ = machine.bytesReceived($0) }
            while machine.nextFrame() != nil { frames += 1 }
        }
        guard frames == 1, machine.failure == nil else {
            throw BenchError("the client's machine gave \(frames) frames for the large line (\(machine.failure.map { "\($0)" } ?? "no failure"))")
        }
        return result
    }
}

/// A reader on its own thread that attaches to an agent, frames what it reads and decodes
/// nothing: when armed, it notes when the first read returns and when a line of at least
/// `minimumLength` bytes is complete, and keeps that line.
private final class RawLineReader: Sendable {
    struct State {
        var ready = false
        var error: String?
        /// Set by the sender just before it sends: reads before it are not the message's.
        var start: UInt64?
        var firstRead: UInt64?
        var lastRead: UInt64?
        var line: [UInt8] = []

        /// Ready for the next message.
        mutating func arm() {
            start = nil
            firstRead = nil
            lastRead = nil
        }
    }

    let state = Locked(State())
    private let stopRequested = Locked(false)
    private let minimumLength: Int

    init(minimumLength: Int) {
        self.minimumLength = minimumLength
    }

    func start(socketPath: String) {
        DedicatedThread.start(name: "bench-stages-reader", stackSize: 1 << 20) { [self] in
            do {
                try run(socketPath: socketPath)
            } catch {
                state.withLock { $0.error = "\(error)" }
            }
        }
    }

    func stop() {
        stopRequested.withLock { $0 = true }
    }

    private func run(socketPath: String) throws {
        let connection = try UnixConnection.connect(to: socketPath)
        defer { connection.close() }
        try connection.writeAll(Array(#"{"kind":"hello","protocol":\#(WireProtocol.version),"client":"bench-stages","subscribe":true}"#.utf8) + [0x0A])
        var framer = LineFramer(maximumLineLength: WireProtocol.maxAgentFrameBytes, expectsLongLines: true)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while !stopRequested.current {
            guard try !Poll.wait(descriptor: connection.rawValue, for: .readable, timeoutMilliseconds: 100).isEmpty else { continue }
            let result = try buffer.withUnsafeMutableBytes { try connection.read(into: $0) }
            let now = monotonicNanoseconds()
            guard case .bytes(let count) = result else {
                if case .endOfFile = result { return }
                continue
            }
            state.withLock { state in
                if state.start != nil, state.firstRead == nil { state.firstRead = now }
            }
            buffer.withUnsafeBytes { bytes in
                framer.feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { frame in
                    guard case .line(let line) = frame else { return }
                    if line.starts(with: Array(#"{"kind":"snapshot""#.utf8)) { state.withLock { $0.ready = true } }
                    guard line.count >= minimumLength else { return }
                    state.withLock { state in
                        if state.start != nil, state.lastRead == nil {
                            state.lastRead = now
                            state.line = line
                        }
                    }
                }
            }
        }
    }
}
