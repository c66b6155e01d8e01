import BridgeCore
import Foundation
import InspectorProtocol
import TestSupport
import Testing

/// Breakpoints on a host seen through GBGBridge's public API, in real WebKit: the page holds what
/// the journey posts (`PageInterceptScript`), since GBGBridge has no point where a message could
/// wait (docs/real-apps.md, "Breakpoints through the page"). The journey here asks `device.info`
/// each time it gets `host.ping`, and lists every answer it receives.
@Suite("Breakpoints through the page, in real WebKit", .enabled(if: WebKitRunnerBuild.runs, Comment(rawValue: WebKitRunnerBuild.skipNote)), .timeLimit(.minutes(10)))
struct WebKitBreakpointTests {
    let binary: String
    let runner: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
        runner = try #require(WebKitRunnerBuild.path, Comment(rawValue: WebKitRunnerBuild.missingNote))
    }

    static let journey = """
        <!doctype html><html><head><meta charset="utf-8"><script>
        var asked = 0;
        window.answers = [];
        window.GBGBridge.receive = function (message) {
          if (message.type === "event" && message.payload.action === "host.ping") {
            asked += 1;
            window.webkit.messageHandlers.gbgBridge.postMessage({ version: "1.0", correlationId: "dev-" + asked, type: "request",
              timestamp: Date.now(), payload: { action: "device.info", data: {} } });
            window.webkit.messageHandlers.gbgBridge.postMessage({ version: "1.0", correlationId: "after-" + asked, type: "event",
              timestamp: Date.now(), payload: { action: "journey.after", data: {} } });
          }
          if (message.type === "response") {
            window.answers.push({ id: message.correlationId, status: message.payload.status, data: message.payload.data || null });
          }
        };
        </script></head><body>breakpoints</body></html>
        """

    @Test("break holds the journey's request in the page; release, edited release, answer and drop; the breakpoint's end lets all go")
    func holdsInThePage() async throws {
        let directory = try TemporaryDirectory()
        let journeyDirectory = directory.file("journey")
        try FileManager.default.createDirectory(atPath: journeyDirectory, withIntermediateDirectories: true)
        try Self.journey.write(toFile: journeyDirectory + "/index.html", atomically: true, encoding: .utf8)
        let webkit = try await WebKitHost.start(
            journey: journeyDirectory, options: ["--inspect-via", "public-api", "--profile", examplePath("web-journey/host-profile.json")],
            binary: binary, runner: runner)
        let host = webkit.process
        defer { host.kill() }
        let socket = webkit.socket
        func cli(_ arguments: [String]) async throws -> CLIResult { try await webkit.cli(arguments) }
        func state() throws -> WireState { try webkit.state() }
        func received(_ id: String) -> Bool { webkit.received(id) }
        #expect(await waitUntil(timeout: .seconds(120)) { (try? state())?.journeyAttached == true }, "\(host.standardError)")
        #expect(try state().host.unsupported?[HostFeature.intercept.rawValue] == nil, "the handshake offers breakpoints")

        let breaker = try BinaryProcess(["break", "type:request action:device.info", "--hold", "600", "--socket", socket], binary: binary, stdin: .closed)
        defer { breaker.kill() }
        #expect(await waitUntil(timeout: .seconds(120)) { ((try? state())?.breakpoints?.count ?? 0) == 1 }, "\(breaker.standardError)")

        // 1. Held in the page: GBGBridge has not got it; the event posted after it went on.
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { ((try? state())?.held?.count ?? 0) == 1 }, "\(breaker.standardOutput) \(host.standardError)")
        #expect(await waitUntil(timeout: .seconds(120)) { received("after-1") }, "a message posted after the held one goes on")
        #expect(!received("dev-1"), "the held request has not reached GBGBridge")
        let first = try #require(try state().held?.first)
        #expect(first.message.correlationId == "dev-1")
        #expect(try await cli(["release", first.id]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { received("dev-1") }, "released: GBGBridge gets it and answers")

        // 2. An edited release goes on with the new data.
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { ((try? state())?.held?.count ?? 0) == 1 })
        let second = try #require(try state().held?.first)
        #expect(try await cli(["release", second.id, "--data", #"{"edited":true}"#]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) {
            ((try? state())?.messages ?? []).contains { $0.direction == .received && $0.message.correlationId == "dev-2" && $0.message.payload.data?["edited"] == true }
        })

        // 3. Answered by hand: the journey gets the answer; GBGBridge never sees the request.
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { ((try? state())?.held?.count ?? 0) == 1 })
        let third = try #require(try state().held?.first)
        let answered = try await cli(["answer", third.id, "--status", "error", "--error-code", "BUSY"])
        #expect(answered.status == 0, "\(answered)")
        #expect(await waitUntil(timeout: .seconds(120)) {
            ((try? state())?.messages ?? []).contains { $0.direction == .sent && $0.message.correlationId == "dev-3" && $0.message.payload.status == .error }
        }, "the page script reports the answer the journey got")
        #expect(!received("dev-3"))

        // 4. Dropped: nothing reaches GBGBridge, and nothing answers.
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { ((try? state())?.held?.count ?? 0) == 1 })
        let fourth = try #require(try state().held?.first)
        #expect(try await cli(["drop", fourth.id]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { received("after-4") })
        #expect(!received("dev-4"))

        // 5. Held, then the breakpoint's process ends: the page lets it go.
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { ((try? state())?.held?.count ?? 0) == 1 })
        breaker.kill()
        #expect(await waitUntil(timeout: .seconds(120)) { received("dev-5") }, "the breakpoint went: the held request goes on")
        #expect(try state().held?.isEmpty != false)
        // Without breakpoints, posts go straight on.
        #expect(try await cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { received("dev-6") })
    }
}
