import BridgeCore
import Foundation
import Histogram
import InspectorAgent

/// Latency from the host receiving a message to a client holding it decoded.
struct LatencyResult {
    var samples: Int
    var missing: Int
    var rate: Double
    var p50: Double
    var p90: Double
    var p99: Double
    var p999: Double
    var max: Double
    var gaps: Int
}

extension LatencyResult {
    /// Percentiles (in a histogram, microseconds) of `arrived - sent` for every message after
    /// the first `warmup`; a message with no arrival time counts as missing.
    static func from(sent: [UInt64], arrived: [UInt64], warmup: Int, rate: Double, gaps: Int) -> LatencyResult {
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var missing = 0
        for index in warmup..<sent.count {
            guard arrived[index] != 0 else {
                missing += 1
                continue
            }
            _ = histogram.record(Swift.max(1, (arrived[index] &- sent[index]) / 1000))
        }
        return LatencyResult(
            samples: Int(histogram.totalCount), missing: missing, rate: rate,
            p50: Double(histogram.valueAtPercentile(50)), p90: Double(histogram.valueAtPercentile(90)),
            p99: Double(histogram.valueAtPercentile(99)), p999: Double(histogram.valueAtPercentile(99.9)),
            max: Double(histogram.max), gaps: gaps)
    }
}

/// A 10 MB message from the journey side until a client holds it.
struct LargePayloadResult {
    var bytes: Int
    /// Median milliseconds from `host.receive` to the client holding the decoded frame.
    var endToEndMs: Double
    /// Median milliseconds the host's `receive` took (its own decoding; the host is busy meanwhile).
    var hostReceiveMs: Double
    /// Median milliseconds for the same bytes over a raw Unix socket.
    var rawSocketMs: Double
    /// Median CPU milliseconds and minor page faults of the following client's thread for the
    /// message (reading, framing, decoding it): what a busy machine disturbs less.
    var clientCPUMs: Double
    var clientPageFaults: Double
    var runs: Int
}

extension HostBench {
    /// A following client attached to the agent at `socketPath`, tracking the messages whose
    /// correlation ids are `<prefix>-<index>`; stop it when done.
    static func attachedClient(
        socketPath: String, trackedCount: Int, prefix: String, purpose: String, notesThreadUsage: Bool = false
    ) async throws -> FollowingClient {
        let client = FollowingClient(trackedCount: trackedCount, notesThreadUsage: notesThreadUsage) { id in
            id.hasPrefix(prefix + "-") ? Int(id.dropFirst(prefix.count + 1)) : nil
        }
        client.start(socketPath: socketPath)
        guard await waitUntil(timeout: 10, { client.status.current.ready || client.status.current.finished }),
            client.status.current.ready
        else {
            client.stop()
            throw BenchError("the \(purpose) client did not attach: \(client.status.current.error ?? "timed out")")
        }
        return client
    }

    /// Sends `count` messages at `rate` per second to a host with an agent and a following
    /// client, and records in a histogram the microseconds from the `host.receive` call to the
    /// client having decoded the frame. The first `warmup` messages are not recorded.
    func latency(count: Int, rate: Double, warmup: Int) async throws -> LatencyResult {
        let transport = DiscardingTransport()
        let host = makeBenchHost(transport: transport)
        let socketPath = scratch.file("latency.sock")
        let agent = try host.startInspector(name: "bench", socketPath: socketPath, limits: limits)
        defer { agent.stop() }
        let total = count + warmup
        let client = try await Self.attachedClient(socketPath: socketPath, trackedCount: total, prefix: "lat", purpose: "latency")
        defer { client.stop() }
        let messages = Workload.messages(total, prefix: "lat")
        let sentAt = await paced(total, rate: rate) { host.receive(messages[$0]) }
        _ = await waitUntil(timeout: 30) { client.arrivals.current.suffix(from: warmup).allSatisfy { $0 != 0 } }
        let arrivals = client.arrivals.current
        return LatencyResult.from(
            sent: sentAt, arrived: arrivals, warmup: warmup, rate: rate, gaps: client.status.current.gaps)
    }

    /// Sends `runs` messages of `bytes` bytes, one at a time, through a host with an agent and a
    /// following client; also carries the same bytes over a raw socket.
    func largePayload(bytes: Int, runs: Int) async throws -> LargePayloadResult {
        let transport = DiscardingTransport()
        let host = makeBenchHost(transport: transport)
        let socketPath = scratch.file("large.sock")
        let agent = try host.startInspector(name: "bench", socketPath: socketPath, limits: limits)
        defer { agent.stop() }
        let client = try await Self.attachedClient(
            socketPath: socketPath, trackedCount: runs, prefix: "big", purpose: "large-payload", notesThreadUsage: true)
        defer { client.stop() }
        var endToEnd: [Double] = []
        var hostReceive: [Double] = []
        var raw: [Double] = []
        for run in 0..<runs {
            let message = Workload.largeMessage(bytes: bytes, id: "big-\(run)")
            raw.append(try RawSocketBench.largeMessageMilliseconds(message))
            let start = monotonicNanoseconds()
            host.receive(message)
            let received = monotonicNanoseconds()
            guard await waitUntil(timeout: 120, { client.arrivals.current[run] != 0 || client.status.current.finished }),
                client.arrivals.current[run] != 0
            else {
                throw BenchError("the client did not receive the large message: \(client.status.current.error ?? "timed out")")
            }
            endToEnd.append(milliseconds(from: start, to: client.arrivals.current[run]))
            hostReceive.append(milliseconds(from: start, to: received))
            try? await Task.sleep(for: .milliseconds(20))
        }
        // What each message cost the client's thread: its usage from the one before (or from
        // when it became ready) to its arrival; the thread idles in between.
        var usages = client.usageAtArrival.current
        usages.insert(client.usageAtReady.current, at: 0)
        var clientCPU: [Double] = []
        var clientFaults: [Double] = []
        for (before, after) in zip(usages, usages.dropFirst()) {
            guard let before, let after else { continue }
            clientCPU.append(Double(after.cpuNanoseconds - before.cpuNanoseconds) / 1e6)
            clientFaults.append(Double(after.minorPageFaults - before.minorPageFaults))
        }
        return LargePayloadResult(
            bytes: bytes, endToEndMs: median(endToEnd), hostReceiveMs: median(hostReceive), rawSocketMs: median(raw),
            clientCPUMs: median(clientCPU), clientPageFaults: median(clientFaults), runs: runs)
    }
}
