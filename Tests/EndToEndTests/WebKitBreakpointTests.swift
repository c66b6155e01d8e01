import BridgeCore
import Foundation
import InspectorProtocol
import TestSupport
import Testing

/// Breakpoints on a host seen through GBGBridge's public API, in real WebKit: the page holds what
/// the journey posts (`PageInterceptScript`), since GBGBridge has no point where a message could
/// wait (docs/inspector-protocol.md, section 13.7). The journey here asks `device.info` each
/// time it gets `host.ping`, and tells the host of every answer it receives (`journey.got`).
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
            window.webkit.messageHandlers.gbgBridge.postMessage({ version: "1.0", correlationId: "got-" + message.correlationId, type: "event",
              timestamp: Date.now(), payload: { action: "journey.got", data: { id: message.correlationId, data: message.payload.data || null } } });
          }
        };
        </script></head><body>breakpoints</body></html>
        """

    /// The host with this journey (the web journey's profile answers device.info), by the public-API path.
    private func startHost() async throws -> WebKitHost {
        try await WebKitHost.start(
            page: Self.journey, options: ["--inspect-via", "public-api", "--profile", examplePath("web-journey/host-profile.json")],
            binary: binary, runner: runner)
    }

    @Test("break holds the journey's request in the page; release, edited release, answer and drop; the breakpoint's end lets all go")
    func holdsInThePage() async throws {
        let webkit = try await startHost()
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

    @Test("break holds what the host sends before the journey's receive; an edited release and a drop reach the journey as such")
    func holdsDeliveries() async throws {
        let webkit = try await startHost()
        defer { webkit.process.kill() }
        #expect(await waitUntil(timeout: .seconds(120)) { (try? webkit.state())?.journeyAttached == true }, "\(webkit.process.standardError)")
        let breaker = try BinaryProcess(
            ["break", "type:response action:device.info", "--hold", "600", "--socket", webkit.socket], binary: binary, stdin: .closed)
        defer { breaker.kill() }
        #expect(await waitUntil(timeout: .seconds(120)) { ((try? webkit.state())?.breakpoints?.count ?? 0) == 1 })
        func held() -> WireHeld? { (try? webkit.state())?.held?.first }
        /// What the journey's receive got, as the journey tells the host: the answered id and its data.
        func got() -> [(id: String, data: JSONValue?)] {
            ((try? webkit.state())?.messages ?? []).filter { $0.direction == .received && $0.message.payload.action == "journey.got" }
                .map { ($0.message.payload.data?["id"]?.stringValue ?? "", $0.message.payload.data?["data"]) }
        }

        // 1. The host answers device.info; the answer waits in the page, then goes on edited.
        #expect(try await webkit.cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { held() != nil }, "\(breaker.standardOutput) \(webkit.process.standardError)")
        let first = try #require(held())
        #expect(first.direction == .sent)
        #expect(first.message.correlationId == "dev-1")
        let refused = try await webkit.cli(["answer", first.id, "--status", "success"])
        #expect(refused.status == 2, "a held response cannot be answered: \(refused)")
        #expect(try await webkit.cli(["release", first.id, "--data", #"{"model":"edited in the page"}"#]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) {
            got().contains { $0.id == "dev-1" && $0.data?["model"] == "edited in the page" }
        }, "the journey got the edited answer")

        // 2. Dropped: the journey never gets the answer.
        #expect(try await webkit.cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { held()?.message.correlationId == "dev-2" })
        let second = try #require(held())
        #expect(try await webkit.cli(["drop", second.id]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { (try? webkit.state())?.held?.isEmpty != false })
        // The next answer goes through, so the dropped one would have arrived by now.
        #expect(try await webkit.cli(["event", "host.ping", "--quiet"]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { held()?.message.correlationId == "dev-3" })
        let third = try #require(held())
        #expect(try await webkit.cli(["release", third.id]).status == 0)
        #expect(await waitUntil(timeout: .seconds(120)) { got().contains { $0.id == "dev-3" } })
        #expect(!got().contains { $0.id == "dev-2" }, "the dropped answer never reached the journey")
    }
}
