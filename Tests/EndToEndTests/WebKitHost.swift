import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing

/// `bridge-inspector host --webkit JOURNEY --headless` on a socket of its own, once it serves: the
/// tests in real WebKit start it, drive it with the scripting commands and read its state.
struct WebKitHost {
    let process: BinaryProcess
    let socket: String
    let directory: TemporaryDirectory
    let binary: String

    /// Starts the host on a journey of one page, `html`, kept in the host's own directory.
    static func start(page html: String, options: [String] = [], binary: String, runner: String) async throws -> WebKitHost {
        let directory = try TemporaryDirectory()
        let journey = directory.file("journey")
        try FileManager.default.createDirectory(atPath: journey, withIntermediateDirectories: true)
        try html.write(toFile: journey + "/index.html", atomically: true, encoding: .utf8)
        return try await start(journey: journey, options: options, binary: binary, runner: runner, directory: directory)
    }

    /// Starts the host on `journey` with `options` (say `--inspect-via public-api`).
    static func start(
        journey: String, options: [String] = [], binary: String, runner: String, directory: TemporaryDirectory? = nil
    ) async throws -> WebKitHost {
        let directory = try directory ?? TemporaryDirectory()
        let socket = directory.file("h.sock")
        let process = try BinaryProcess(
            ["host", "--webkit", journey, "--headless", "--socket", socket] + options, binary: binary,
            environment: ["BRIDGE_INSPECTOR_WEBKIT_RUNNER": runner], stdin: .closed)
        guard await process.waitForLine(prefix: "socket: ") == socket else {
            process.kill()
            throw HostStartFailure(description: "the host did not start: \(process.standardError)")
        }
        return WebKitHost(process: process, socket: socket, directory: directory, binary: binary)
    }

    /// `bridge-inspector ARGS --socket <this host>`, to its end.
    func cli(_ arguments: [String]) async throws -> CLIResult {
        try await runCLI(arguments + ["--socket", socket], binary: binary)
    }

    /// The host's state now, through a session of the test's own.
    func state() throws -> WireState {
        let session = try InspectorSession(socketPath: socket, subscribe: false, clientName: "webkit-tests", timeout: 120)
        defer { session.close() }
        _ = try session.run(.snapshot)
        while let frame = try session.nextFrame(timeout: 120) {
            if case .snapshot(_, let state) = frame { return state }
        }
        throw HostStartFailure(description: "no snapshot")
    }

    /// Whether the host has received a message with `correlationId`.
    func received(_ correlationId: String) -> Bool {
        ((try? state())?.messages ?? []).contains { $0.direction == .received && $0.message.correlationId == correlationId }
    }
}
