import BridgeCore
import Foundation
import InspectorAgent
import InspectorProtocol
import SocketSupport
import ThreadSupport

/// Attaching to a busy host: how long a new client waits for its first live event, and how many
/// bytes the agent writes to it until then (one snapshot, and the events that queued behind it).
struct AttachResult {
    var logMessages: Int
    var messageBytes: Int
    var rate: Double
    /// From `connect` to the first live event after the snapshot.
    var firstLiveEventMs: Double
    /// Bytes read by the client until (and with) that event.
    var bytesToFirstLiveEvent: Int
    /// Snapshots and gaps the client saw until then (1 and 0 when attaching works).
    var snapshots: Int
    var gaps: Int
    /// What decoding the snapshot frame takes as a client's connection decodes it, from the line's
    /// own bytes (`AgentFrame.decode(bytes:)`), measured after the fact so it does not delay the
    /// figures above: the first decode, as a client attaching does it (later ones reuse the memory
    /// it took and freed).
    var snapshotDecodeMs: Double

    /// Decodes of the snapshot after the first, alternating with the full decoding, for the
    /// CPU times printed as progress.
    static let snapshotDecodeRuns = 5
}

extension HostBench {
    /// Fills the log with `logMessages` messages of `messageBytes`, keeps traffic of that size
    /// flowing at `rate` messages a second (paced in 10 ms batches), and attaches a raw client
    /// that reads frames as fast as it can.
    func attachUnderLoad(logMessages: Int, messageBytes: Int, rate: Double) async throws -> AttachResult {
        let transport = DiscardingTransport()
        let host = makeBenchHost(transport: transport)
        let socketPath = scratch.file("attach.sock")
        let agent = try host.startInspector(name: "bench-attach", socketPath: socketPath, limits: limits)
        defer { agent.stop() }
        for index in 0..<logMessages { host.receive(Data(Self.event("log-\(index)", bytes: messageBytes).utf8)) }

        let done = Locked(false)
        let reader = Task.detached { () throws -> AttachResult in
            defer { done.withLock { $0 = true } }
            return try Self.readUntilFirstLiveEvent(socketPath: socketPath, logMessages: logMessages, messageBytes: messageBytes, rate: rate)
        }
        let perBatch = max(1, Int(rate / 100))
        var index = 0
        var next = monotonicNanoseconds()
        let deadline = next + 120_000_000_000
        while !done.current, monotonicNanoseconds() < deadline {
            for _ in 0..<perBatch {
                host.receive(Data(Self.event("live-\(index)", bytes: messageBytes).utf8))
                index += 1
            }
            next += 10_000_000
            let now = monotonicNanoseconds()
            if next > now { try? await Task.sleep(nanoseconds: next - now) }
        }
        return try await reader.value
    }

    /// An event message of about `bytes` bytes.
    nonisolated static func event(_ id: String, bytes: Int) -> String {
        let head = #"{"version":"1.0","correlationId":"\#(id)","type":"event","timestamp":1732240000000,"payload":{"action":"load","data":{"pad":""#
        let tail = #""}}}"#
        return head + String(repeating: "x", count: max(0, bytes - head.utf8.count - tail.utf8.count)) + tail
    }

    nonisolated private static func readUntilFirstLiveEvent(socketPath: String, logMessages: Int, messageBytes: Int, rate: Double) throws -> AttachResult {
        let start = monotonicNanoseconds()
        let connection = try UnixConnection.connect(to: socketPath)
        defer { connection.close() }
        try connection.writeAll(Array(#"{"kind":"hello","protocol":1,"client":"bench-attach"}"#.utf8) + [0x0A])
        var framer = LineFramer(maximumLineLength: WireProtocol.maxAgentFrameBytes)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var bytes = 0
        var snapshots = 0
        var gaps = 0
        var snapshotLine: [UInt8] = []
        let deadline = start + 120_000_000_000
        while monotonicNanoseconds() < deadline {
            _ = try Poll.wait(descriptor: connection.rawValue, for: .readable, timeoutMilliseconds: 100)
            guard case .bytes(let count) = try buffer.withUnsafeMutableBytes({ try connection.read(into: $0) }) else { continue }
            bytes += count
            let frames = buffer.withUnsafeBytes { framer.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for case .line(let line) in frames {
                // The kind is the first member the agent writes: no need to decode the frame.
                let head = String(decoding: line.prefix(24), as: UTF8.self)
                if head.hasPrefix(#"{"kind":"snapshot""#) {
                    snapshots += 1
                    if snapshots == 1 { snapshotLine = line }
                }
                if head.hasPrefix(#"{"kind":"gap""#) { gaps += 1 }
                if head.hasPrefix(#"{"kind":"event""#), snapshots > 0 {
                    let firstLive = milliseconds(from: start, to: monotonicNanoseconds())
                    let decodeMs = try decodeSnapshot(snapshotLine)
                    return AttachResult(
                        logMessages: logMessages, messageBytes: messageBytes, rate: rate,
                        firstLiveEventMs: firstLive, bytesToFirstLiveEvent: bytes, snapshots: snapshots, gaps: gaps,
                        snapshotDecodeMs: decodeMs)
                }
            }
        }
        throw BenchError("attaching under load: no live event within 120 s (\(snapshots) snapshots, \(gaps) gaps, \(bytes) bytes)")
    }

    /// The milliseconds of decoding `line` once as a client's connection does, from its bytes
    /// (`AgentFrame.decode(bytes:)`; until issue 30 the connection copied the line into `Data`
    /// first). Also prints, as progress, that first decode's CPU time and its thread's minor page
    /// faults (the fresh memory it touched), and the median CPU time of
    /// `AttachResult.snapshotDecodeRuns` more decodes, alternating with the same through a copy in
    /// `Data` and with the full decoding the one-pass snapshot reader replaced
    /// (`readParsingWhole`): how they compare, on a busy machine too.
    nonisolated private static func decodeSnapshot(_ line: [UInt8]) throws -> Double {
        let faultsStart = threadMinorPageFaults()
        let cpuStart = threadCPUNanoseconds()
        let start = monotonicNanoseconds()
        _ = try AgentFrame.decode(bytes: line)
        let firstMs = milliseconds(from: start, to: monotonicNanoseconds())
        let firstCPU = Double(threadCPUNanoseconds() - cpuStart) / 1e6
        let faults = threadMinorPageFaults() - faultsStart
        var cpu: [Double] = []
        var throughDataCPU: [Double] = []
        var fullCPU: [Double] = []
        for _ in 0..<AttachResult.snapshotDecodeRuns {
            let fastStart = threadCPUNanoseconds()
            _ = try AgentFrame.decode(bytes: line)
            cpu.append(Double(threadCPUNanoseconds() - fastStart) / 1e6)
            let dataStart = threadCPUNanoseconds()
            _ = try AgentFrame.decode(Data(line))
            throughDataCPU.append(Double(threadCPUNanoseconds() - dataStart) / 1e6)
            let fullStart = threadCPUNanoseconds()
            _ = try AgentFrame.readParsingWhole(line)
            fullCPU.append(Double(threadCPUNanoseconds() - fullStart) / 1e6)
        }
        BridgeInspectorBench.progress(
            String(format: "snapshot of %.1f MiB: first AgentFrame.decode(bytes:) %.1f ms (%.1f ms CPU, %d minor page faults); then, CPU medians of %d: decode(bytes:) %.1f ms, through a copy in Data %.1f ms, the full decoding %.1f ms",
                Double(line.count) / 1_048_576, firstMs, firstCPU, faults, AttachResult.snapshotDecodeRuns, median(cpu), median(throughDataCPU), median(fullCPU)))
        return firstMs
    }
}
