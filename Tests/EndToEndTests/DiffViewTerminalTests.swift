import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
import TestSupport
import Testing

/// Issue 28, part 3, in a real terminal: `open A --compare B` starts with the session diff view
/// open, Enter shows both sides' messages, and Esc goes back to the recording.
@Suite("The session diff view in a terminal", .serialized, .timeLimit(.minutes(10)), .requires(.tmux))
struct DiffViewTerminalTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// A recording of one upload answered with `status`, written to `path` as `w` writes one.
    static func write(status: BridgeResponseStatus, to path: String, at start: Double) throws {
        let messages = [
            TrafficFixture.request(seq: 1, id: "up-\(Int(start))", action: "document.upload", at: start, data: ["side": "front"]),
            TrafficFixture.response(
                seq: 2, id: "up-\(Int(start))", action: "document.upload", at: start + 80, status: status,
                error: status == .error ? BridgeErrorCode.invalidRequest.payload() : nil),
        ]
        let host = WireHostInfo(name: "demo", pid: 4242, hostVersion: "2.1.0", environment: "ios", startedAt: start - 1_000)
        let state = WireState(
            host: host, journeyAttached: true, lastError: nil, errorHistory: [], messages: messages, malformed: [], pending: [], slots: [],
            customCapabilities: [], counts: WireCounts(received: 1))
        var live = LiveState()
        live.apply(.snapshot(seq: 2, state: state), at: start)
        let bytes = live.recording(header: Recording.Header(socket: "/tmp/demo.sock", startedAt: start, client: "test"))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test("open A --compare B shows the summary line and the status change; Enter shows both messages; Esc, q leave with 0")
    func openCompare() async throws {
        let directory = try TemporaryDirectory()
        let before = directory.file("build-41.jsonl")
        let after = directory.file("build-42.jsonl")
        try Self.write(status: .success, to: before, at: 1_700_000_000_000)
        try Self.write(status: .error, to: after, at: 1_700_000_600_000)

        let terminal = try TmuxSession([binary, "open", after, "--compare", before])
        defer { terminal.kill() }
        let screen = try #require(await terminal.waitFor("2 differences: 1 status changed, 1 error code changed"))
        #expect(screen.contains("status: success → error"), "\(screen)")
        try terminal.press("Enter")
        let opened = try #require(await terminal.waitFor("before  ", "after   ", "INVALID_REQUEST"))
        #expect(opened.contains("\"status\": \"success\""), "\(opened)")
        try terminal.press("Escape", "Escape")
        await terminal.waitFor("recording")
        try terminal.press("q")
        #expect(await terminal.exitStatus() == 0, "\(terminal.screen())")
    }
}
