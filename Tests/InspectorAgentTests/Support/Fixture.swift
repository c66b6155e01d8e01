#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BridgeCore
import Foundation
@testable import InspectorAgent
import SocketSupport
import Testing

/// A fixed instant used as request timestamps.
let fixedMillis = 1_732_240_000_000

/// Makes a fresh, short directory `/tmp/bi-XXXXXX` (mode 0700, so socket paths fit in sun_path).
func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/bi-XXXXXX".utf8CString)
    let created = template.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return false }
        return mkdtemp(base) != nil
    }
    guard created else { throw TestSetupError(description: "mkdtemp failed: errno \(errno)") }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// lstat of `path`, or nil.
func linkStatus(_ path: String) -> stat? {
    var status = stat()
    return lstat(path, &status) == 0 ? status : nil
}

func isSocketFile(_ path: String) -> Bool {
    guard let status = linkStatus(path) else { return false }
    return status.st_mode & mode_t(S_IFMT) == mode_t(S_IFSOCK)
}

/// Leaves a socket file at `path` that nobody serves, as a crashed host would.
func makeStaleSocket(at path: String) throws {
    #if canImport(Glibc)
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw TestSetupError(description: "socket failed: errno \(errno)") }
    defer { close(descriptor) }
    let address = try UnixSocketAddress(path: path)
    let result = address.withSocketAddress { bind(descriptor, $0, $1) }
    guard result == 0 else { throw TestSetupError(description: "bind \(path) failed: errno \(errno)") }
}

/// The text of a message from the journey.
func messageText(type: String = "request", action: String, id: String, data: String = "{}") -> String {
    #"{"version":"1.0","correlationId":"\#(id)","type":"\#(type)","timestamp":\#(fixedMillis),"payload":{"action":"\#(action)","data":\#(data)}}"#
}

/// Polls `condition` on the main actor (yielding, then sleeping 1 ms between checks), for at most
/// about ten seconds. Returns whether it became true. Use as `#expect(await eventually { ... })`.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    var iteration = 0
    while ContinuousClock.now < deadline {
        if condition() { return true }
        iteration += 1
        if iteration < 50 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return condition()
}

/// A host on the main actor with a recording journey and a running agent on a private socket.
@MainActor
final class Fixture {
    let directory: String
    let socketPath: String
    let host: BridgeHost
    let journey: RecordingJourneyTransport
    let agent: InspectorAgent

    /// The agent's default limits, except generous time limits: the main actor is shared by tests
    /// running in parallel (and CI machines may be busy), so a handshake or a read can be late by
    /// seconds; tests that are about these time limits set them explicitly.
    static func limits() -> AgentLimits {
        var limits = AgentLimits()
        limits.handshakeSeconds = 120
        limits.stalledClientSeconds = 120
        return limits
    }

    /// `prepare` runs on the host before the agent starts (to test the initial snapshot).
    /// With `tcp` the agent also listens over TCP (see ``InspectorTCPOptions``).
    init(
        limits: AgentLimits = Fixture.limits(), name: String = "test-host", tcp: InspectorTCPOptions? = nil,
        prepare: (BridgeHost) -> Void = { _ in }
    ) throws {
        directory = try makeTemporaryDirectory()
        socketPath = directory + "/a.sock"
        host = BridgeHost(hostVersion: "2.3.4")
        journey = RecordingJourneyTransport()
        host.attach(journey)
        prepare(host)
        do {
            agent = try host.startInspector(name: name, socketPath: socketPath, limits: limits, tcp: tcp)
        } catch {
            removeDirectory(directory)
            throw error
        }
    }

    func stop() {
        agent.stop()
        removeDirectory(directory)
    }

    /// A connected raw client that has done the handshake.
    func client(subscribe: Bool = true) async throws -> (client: RawClient, hello: Frame, snapshot: Frame?) {
        let client = try RawClient.connect(socketPath)
        let (hello, snapshot) = try await client.handshake(subscribe: subscribe)
        return (client, hello, snapshot)
    }

    /// Makes the capture slot wait for `complete(_:)` (the UI-driven flow).
    func makeSlotWaitForCompletion(_ kind: CaptureCapability.Kind) {
        let slot = host.slot(kind)
        slot.handler = { [weak slot] _ in
            await slot?.awaitCompletion() ?? .cancelled(reason: "slot gone")
        }
    }

    /// Has the journey send `text`.
    func receive(_ text: String) {
        host.receive(text: text)
    }

    /// The messages the journey got, as decoded messages.
    var delivered: [BridgeMessage] { journey.messages }
}

/// Events among `frames`.
func events(_ frames: [Frame]) -> [Frame] { frames.filter(\.isEvent) }

/// Events of one type among `frames`.
func events(_ frames: [Frame], type: String) -> [Frame] { frames.filter { $0.isEvent && $0.eventType == type } }

/// What SIGPIPE does now: true when it has its default disposition (terminate the process).
func sigpipeHasDefaultDisposition() -> Bool {
    var current = sigaction()
    guard sigaction(SIGPIPE, nil, &current) == 0 else { return false }
    #if canImport(Glibc)
    return current.__sigaction_handler.sa_handler == nil
    #else
    return current.__sigaction_u.__sa_handler == nil
    #endif
}

/// The process umask, read without changing it (Linux: /proc/self/status); nil where unavailable.
func currentUmask() -> String? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    return status.split(separator: "\n").first { $0.hasPrefix("Umask:") }.map(String.init)
}
