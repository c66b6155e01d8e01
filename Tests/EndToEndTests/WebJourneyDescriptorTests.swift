import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector host --serve` out of file descriptors (issue 11, point 3): accepting must
/// pause, not spin a core, and the service must come back once descriptors are free again.
///
/// The host runs in a child process whose descriptor limit is lowered by `ulimit -n` in the shell
/// that execs it; the limits of the test process itself are left alone.
@Suite("Web journey out of file descriptors", .serialized)
struct WebJourneyDescriptorTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// The descriptor limit of the host process.
    static let limit = 64

    @Test("with its descriptors exhausted the host stays nearly idle, and serves again once they are free")
    func exhaustedDescriptors() async throws {
        let directory = try TemporaryDirectory()
        let host = try BinaryProcess([
            "-c", "ulimit -n \(Self.limit) && exec \"$0\" \"$@\"", binary,
            "host", "--serve", examplePath("web-journey"), "--socket", directory.file("h.sock"),
        ], binary: "/bin/sh")
        defer { host.kill() }
        let served = try #require(await host.waitForLine(prefix: "serving: "), "stderr: \(host.standardError)")
        let (port, token) = try #require(servedAddress(served), "not http://127.0.0.1:<port>/?token=<token>: \(served)")
        let pid = host.pid
        let request = "GET /__gbgbridge/bootstrap.js?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        #expect(try webTCPRequest(port: port, request).hasPrefix("HTTP/1.1 200 OK"))
        let before = try #require(Self.openDescriptors(pid))

        // Connections the host accepts until it has no descriptor left; the rest wait in its
        // backlog. Each stays open and silent.
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<(Self.limit + 32) {
            guard let socket = try? loopbackConnection(port: port, timeout: 2) else { break }
            sockets.append(socket)
        }
        // The host closes a connection that sends nothing after its 10 s request timeout. On a
        // busy machine the accepts can take that long, and then the first ones close together and
        // what waits in the backlog no longer fills the limit: top the backlog up while waiting.
        let exhausted = await waitUntil(timeout: .seconds(60)) {
            if (Self.openDescriptors(pid) ?? 0) >= Self.limit { return true }
            if sockets.count < 4 * Self.limit, let socket = try? loopbackConnection(port: port, timeout: 2) { sockets.append(socket) }
            return (Self.openDescriptors(pid) ?? 0) >= Self.limit
        }
        let during = Self.openDescriptors(pid) ?? -1
        #expect(exhausted, "the host holds \(during) of \(Self.limit) descriptors after \(sockets.count) connections")

        // CPU over about two seconds, from the kernel's own accounting of the process.
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let startTicks = try #require(Self.cpuTicks(pid))
        let startTime = ContinuousClock.now
        try await Task.sleep(for: .seconds(2))
        let endTicks = try #require(Self.cpuTicks(pid))
        let elapsed = ContinuousClock.now - startTime
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let share = Double(endTicks - startTicks) / ticksPerSecond / seconds
        let still = Self.openDescriptors(pid) ?? -1
        print(
            "descriptors: host held \(before) before, \(during)/\(Self.limit) with \(sockets.count) connections open, \(still) after the window; "
                + "CPU while exhausted: \(String(format: "%.1f", share * 100)) % of a core over \(String(format: "%.2f", seconds)) s (a spinning accept loop is ~100 %)")
        #expect(share < 0.3, "the host used \(share * 100) % of a core while out of descriptors")

        // Free them: the host accepts again (after its back-off) and answers.
        sockets.forEach { close($0) }
        sockets = []
        let freed = ContinuousClock.now
        let answered = await waitUntil(timeout: .seconds(30)) {
            (try? webTCPRequest(port: port, request, timeout: 2))?.hasPrefix("HTTP/1.1 200 OK") == true
        }
        print("descriptors: service back \(ContinuousClock.now - freed) after the connections closed")
        #expect(answered, "the host did not answer again; stderr: \(host.standardError)")
        #expect(host.isRunning)
        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0, "stderr: \(host.standardError)")
    }

    /// How many descriptors process `pid` has open (Linux: /proc).
    static func openDescriptors(_ pid: Int32) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    /// The user and system CPU time of process `pid`, in clock ticks (fields 14 and 15 of /proc/PID/stat).
    static func cpuTicks(_ pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm)" the fields are counted from 3 (state).
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}
