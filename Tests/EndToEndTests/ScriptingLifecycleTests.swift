import Foundation
import TestSupport
import Testing

/// A journey that sends one request nobody answers (its id new on every run), then waits.
private let lifecycleScenario = """
    {"name": "lifecycle", "steps": [
      {"send": {"payload": {"action": "nfc.read"}, "timeoutMs": 600000}},
      {"wait": 600000}
    ]}
    """

/// `bridge-inspector lifecycle` against a real host with a simulated journey (issue 29, item 2).
@Suite("Scripting: lifecycle", .serialized)
struct ScriptingLifecycleTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    /// The events the journey received, as (action, data), in order.
    private func received(_ host: ScriptedHost) -> [(action: String, data: [String: Any])] {
        host.journeyEntries.compactMap { entry in
            guard entry["kind"] as? String == "received", let message = entry["message"] as? [String: Any],
                message["type"] as? String == "event", let payload = message["payload"] as? [String: Any],
                let action = payload["action"] as? String
            else { return nil }
            return (action, payload["data"] as? [String: Any] ?? [:])
        }
    }

    /// The actions of the host's events in `snapshot --json`, with their data.
    private func snapshotEvents(_ host: ScriptedHost) async throws -> [(action: String, data: [String: Any])] {
        let result = try await host.run(["snapshot", "--json"], binary: binary)
        #expect(result.status == 0, "\(result)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let messages = root["messages"] as? [[String: Any]] ?? []
        return messages.compactMap { record in
            guard let message = record["message"] as? [String: Any], message["type"] as? String == "event",
                let payload = message["payload"] as? [String: Any], let action = payload["action"] as? String
            else { return nil }
            return (action, payload["data"] as? [String: Any] ?? [:])
        }
    }

    @Test("background, foreground, orientation landscape and ready reach the journey as the documented events with their data")
    func documentedEvents() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: lifecycleScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { !$0.isEmpty })
        for step in [["background"], ["foreground"], ["orientation", "landscape"], ["ready"]] {
            let result = try await host.run(["lifecycle"] + step, binary: binary)
            #expect(result.status == 0, "\(step): \(result)")
            #expect(result.lines.count == 1, "piped: the event sent, as one JSON line: \(result)")
        }
        let events = try await snapshotEvents(host)
        let actions = events.map(\.action)
        // The first host.ready is the one sent when the journey attached.
        #expect(actions.suffix(4) == ["host.background", "host.foreground", "host.orientation", "host.ready"], "\(actions)")
        #expect(events.first { $0.action == "host.orientation" }?.data["orientation"] as? String == "landscape")
        let ready = try #require(events.last)
        #expect(ready.data["version"] as? String != nil && ready.data["timestamp"] as? Double != nil, "the host's own ready: \(ready.data)")
        #expect(await waitUntil(timeout: .seconds(20)) { self.received(host).map(\.action).suffix(4) == actions.suffix(4) })
    }

    @Test("detach: an event sent meanwhile is not delivered (lastError says WebView not attached); attach: delivered again")
    func detachAndAttach() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: lifecycleScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { !$0.isEmpty })
        let detached = try await host.run(["lifecycle", "detach", "--json"], binary: binary)
        #expect(detached.status == 0, "\(detached)")
        #expect(detached.stdout.contains(#""step":"detach""#), "\(detached)")
        #expect(try host.state().journeyAttached == false)

        #expect(try await host.run(["event", "host.lost", "--quiet"], binary: binary).status == 0)
        let lastError = try host.state().lastError?.text ?? ""
        #expect(lastError.hasPrefix("WebView not attached"), "\(lastError)")

        let attached = try await host.run(["lifecycle", "attach"], binary: binary)
        #expect(attached.status == 0, "\(attached)")
        #expect(try await host.run(["event", "host.found", "--quiet"], binary: binary).status == 0)
        #expect(await waitUntil(timeout: .seconds(20)) { self.received(host).contains { $0.action == "host.found" } })
        #expect(!received(host).contains { $0.action == "host.lost" }, "the event sent while detached never arrived")
    }

    @Test("reload: the simulated journey starts again after host.ready; the request it sent before stays pending")
    func reload() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: lifecycleScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { $0.count == 1 })
        let before = try host.state().pending.map(\.correlationId)
        let readies = received(host).filter { $0.action == "host.ready" }.count
        let result = try await host.run(["lifecycle", "reload"], binary: binary)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("reload"), "\(result)")
        #expect(await host.waitForPending { $0.count == 2 }, "the new run sent its request again")
        let after = try host.state().pending.map(\.correlationId)
        #expect(Set(before).isSubset(of: Set(after)), "nothing is cleared by a reload: \(before) then \(after)")
        #expect(await waitUntil(timeout: .seconds(20)) { self.received(host).filter { $0.action == "host.ready" }.count == readies + 1 })
    }

    @Test("a step that is not one, or an orientation that is not offered, is bad use (64) and sends nothing")
    func badUse() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: lifecycleScenario)
        defer { host.stop() }
        let unknown = try await host.run(["lifecycle", "sleep"], binary: binary)
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.stderr.contains("unknown lifecycle step"))
        let sideways = try await host.run(["lifecycle", "orientation", "sideways\u{1B}]0;x\u{07}"], binary: binary)
        #expect(sideways.status == 64, "\(sideways)")
        #expect(!sideways.stderr.contains("\u{1B}"), "the value is sanitized before it reaches a terminal")
        let missing = try await host.run(["lifecycle", "orientation"], binary: binary)
        #expect(missing.status == 64, "\(missing)")
    }

    @Test("a host seen through GBGBridge's public API refuses the web view's steps with exit 2 and says what an app would need")
    func publicAPIRefuses() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: lifecycleScenario, extra: ["--inspect-via", "public-api"])
        defer { host.stop() }
        let detach = try await host.run(["lifecycle", "detach"], binary: binary)
        #expect(detach.status == 2, "\(detach)")
        #expect(detach.stderr.contains("JourneyControl"), "\(detach)")
        #expect(try host.state().journeyAttached, "nothing was detached")
    }
}
