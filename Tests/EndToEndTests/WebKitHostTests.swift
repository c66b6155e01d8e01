import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bridge-inspector host --webkit examples/web-journey --headless`: the example journey in a real
/// WebKit web view, and the inspector's scripting commands attached to it unchanged, by both
/// paths (docs/web-journeys.md, "In a real WebKit web view"). Needs the WebKit runner
/// (Integrations/WebKitRunner); `.ci/run` builds it and requires these tests.
@Suite("Host with a journey in real WebKit", .enabled(if: WebKitRunnerBuild.runs, Comment(rawValue: WebKitRunnerBuild.skipNote)), .timeLimit(.minutes(10)))
struct WebKitHostTests {
    let binary: String
    let runner: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
        runner = try #require(WebKitRunnerBuild.path, Comment(rawValue: WebKitRunnerBuild.missingNote))
    }

    /// The processes `pid` started (Linux: /proc/PID/task/*/children).
    private func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { Int32($0) }
        }
    }

    @Test("the example journey: the inspector answers its capture, host.ping gets journey.pong, and the runner goes with the host", arguments: InspectedVia.allCases)
    func exampleJourney(path: InspectedVia) async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("h.sock")
        let host = try BinaryProcess(
            ["host", "--webkit", examplePath("web-journey"), "--headless", "--socket", socket] + path.hostOptions, binary: binary,
            environment: ["BRIDGE_INSPECTOR_WEBKIT_RUNNER": runner], stdin: .closed)
        defer { host.kill() }
        #expect(await host.waitForLine(prefix: "socket: ") == socket, "\(host.standardError)")
        func cli(_ arguments: [String]) async throws -> CLIResult { try await runCLI(arguments + ["--socket", socket], binary: binary) }

        let waited = try await cli(["wait-for", "--filter", "action:camera.document.capture", "--timeout", "120"])
        #expect(waited.status == 0, "\(waited)\nhost: \(host.standardError)")
        let id = waited.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.hasPrefix("web-"), "\(waited)")
        let answered = try await cli([
            "respond", id, "--quiet", "--data", #"{"imageBase64":"iVBORw0KGgo=","imageWidth":2,"imageHeight":1,"mimeType":"image/png"}"#,
        ])
        #expect(answered.status == 0, "\(answered)")
        #expect(host.standardError.contains("page 1 ("), "\(host.standardError)")
        #expect(host.standardError.contains("loaded; sent host.ready."), "\(host.standardError)")

        let pong = try BinaryProcess(["tail", "--last", "0", "--until", "action:journey.pong", "--timeout", "120", "--socket", socket], binary: binary, stdin: .closed)
        defer { pong.kill() }
        for _ in 0..<120 where pong.isRunning {
            _ = try await cli(["event", "host.ping", "--quiet"])
            _ = await waitUntil(timeout: .seconds(1)) { !pong.isRunning }
        }
        #expect(await pong.waitForExit() == 0, "\(pong.standardError)")
        #expect(pong.standardOutput.contains("journey.pong"), "\(pong.standardOutput)")

        // What the host sent, as the inspector saw it: by the public-API path only through the
        // page script running in WebKit.
        let log = try await cli(["tail", "--last", "200", "--filter", "action:camera.document.capture"])
        #expect(log.stdout.split(separator: "\n").count >= 2, "the request and its answer: \(log)")

        let started = children(of: host.pid)
        #expect(!started.isEmpty, "the host started no runner")
        host.signal(SIGTERM)
        #expect(await host.waitForExit() == 0, "\(host.standardError)")
        let gone = await waitUntil(timeout: .seconds(60)) { started.allSatisfy { kill($0, 0) != 0 } }
        #expect(gone, "the runner (\(started)) outlived the host")
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test("inject and replay on a host seen through the public API post in the page: GBGBridge takes them from its own handler")
    func injectAndReplayThroughThePage() async throws {
        let webkit = try await WebKitHost.start(journey: examplePath("web-journey"), options: ["--inspect-via", "public-api"], binary: binary, runner: runner)
        let host = webkit.process
        defer { host.kill() }
        func cli(_ arguments: [String]) async throws -> CLIResult { try await webkit.cli(arguments) }
        func state() throws -> WireState { try webkit.state() }
        #expect(try await cli(["wait-for", "--filter", "action:camera.document.capture", "--timeout", "120"]).status == 0, "\(host.standardError)")
        #expect(try state().host.unsupported?[HostFeature.inject.rawValue] == nil, "the handshake offers inject")

        // device.info has a handler in the example's profile: the answer comes back through the page script.
        let injected = try await cli(["inject", "request", "device.info", "--id", "inspector-webkit-1", "--timeout", "120"])
        #expect(injected.status == 0, "\(injected)\nhost: \(host.standardError)")
        #expect(injected.lines.count == 2, "the message and its answer: \(injected)")
        #expect(injected.lines.last?.contains("Desktop browser") == true, "\(injected)")
        let received = try state().messages.filter { $0.direction == .received && $0.message.correlationId == "inspector-webkit-1" }
        #expect(received.count == 1)
        #expect(received.first?.origin == .inspector)

        let query = try #require(try state().messages.first { $0.direction == .received && $0.message.payload.action == "capability.query" })
        let replayed = try await cli(["replay", "\(query.seq)", "--timeout", "120"])
        #expect(replayed.status == 0, "\(replayed)")
        #expect(replayed.lines.count == 2, "the replayed request and its answer: \(replayed)")
        #expect(try state().messages.filter { $0.direction == .received && $0.message.payload.action == "capability.query" }.count == 2)
    }

    @Test("a journey that is not there, or no runner, is a clear error before anything starts")
    func badStart() async throws {
        let missing = try await runCLI(["host", "--webkit", "/nonexistent/journey", "--headless"], binary: binary, environment: ["BRIDGE_INSPECTOR_WEBKIT_RUNNER": runner])
        #expect(missing.status == 64, "a journey that is not there is a usage error: \(missing)")
        #expect(missing.stderr.contains("no such directory or file"), "\(missing)")
        let noRunner = try await runCLI(
            ["host", "--webkit", examplePath("web-journey"), "--headless"], binary: binary, environment: ["BRIDGE_INSPECTOR_WEBKIT_RUNNER": "/nonexistent/runner"])
        #expect(noRunner.status == 1, "a runner not built is not the command line's fault: \(noRunner)")
        #expect(noRunner.stderr.contains("swift build --package-path Integrations/WebKitRunner"), "\(noRunner)")
        #expect(!noRunner.stdout.contains("socket: "), "nothing was served: \(noRunner)")
    }
}
