import BridgeCore
import Foundation
import GBGBridgeInspector
import JourneyWebKit

/// `--webkit-only`: the bridge in a real WebKit web view (the runner, `bridge-inspector-webkit`),
/// with and without the GBGBridge adapter's page script (`OutgoingTapScript`): what a message
/// costs end to end through WebKit, and what the page script adds to each delivery.
///
/// Each run sends `messages` events from the host (each one `evaluate_javascript` of the exact
/// delivery script) and waits until the page's `receive` has counted them all (and, with the page
/// script, until its reports of them all came back to the host); then the page posts `messages`
/// events and the run waits until the host has received them. Setups alternate; the median of
/// the runs is reported. Wall time on a shared machine: read the ratio, not the absolute figure.
@MainActor
enum WebKitBench {
    struct Figures {
        /// Median µs per delivery, host to the journey's `receive`, without and with the page script.
        var deliveryMicros: Double
        var deliveryWithScriptMicros: Double
        /// Median µs per post, the journey to the host.
        var postMicros: Double
        var webkitVersion: String

        var scriptRatio: Double { deliveryWithScriptMicros / deliveryMicros }

        func add(to report: inout Report) {
            var webkit = Report()
            webkit.set("webkit_version", webkitVersion)
            webkit.set("delivery_us", deliveryMicros)
            webkit.set("delivery_with_page_script_us", deliveryWithScriptMicros)
            webkit.set("page_script_ratio", scriptRatio)
            webkit.set("post_us", postMicros)
            report.set("webkit", webkit)
        }

        func add(to table: inout Table) {
            table.title("In real WebKit (WebKitGTK \(webkitVersion), through bridge-inspector-webkit)")
            table.row("delivery, host -> journey's receive", Format.fixed(deliveryMicros, 1) + " µs", "per message, evaluate_javascript")
            table.row("delivery with the adapter's page script", Format.fixed(deliveryWithScriptMicros, 1) + " µs", "report back to the host included")
            table.row("page script's cost, as a ratio", Format.fixed(scriptRatio, 2) + "x")
            table.row("post, journey -> host", Format.fixed(postMicros, 1) + " µs", "per message, script message handler")
        }
    }

    static let page = """
        <!doctype html><html><head><meta charset="utf-8"><script>
        window.count = 0;
        window.GBGBridge.receive = function (message) { window.count += 1; };
        function burst(n) {
          for (var i = 0; i < n; i++) {
            window.webkit.messageHandlers.gbgBridge.postMessage({ version: "1.0", correlationId: "bench-" + i, type: "event",
              timestamp: Date.now(), payload: { action: "bench.post", data: { i: i } } });
          }
        }
        </script></head><body>bench</body></html>
        """

    static func measure(scratch: ScratchDirectory, messages: Int, runs: Int) async throws -> Figures {
        let runner = try WebKitRunnerLocator.locate()
        let directory = scratch.path + "/webkit-journey"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try page.write(toFile: directory + "/index.html", atomically: true, encoding: .utf8)
        var plain: [Double] = []
        var tapped: [Double] = []
        var posts: [Double] = []
        var version = ""
        for run in 0..<runs {
            for withScript in [run % 2 == 1, run % 2 == 0] {
                BridgeInspectorBench.progress("WebKit run \(run + 1)/\(runs), \(withScript ? "with" : "without") the page script")
                let result = try await once(runner: runner, directory: directory, messages: messages, withScript: withScript)
                version = result.version
                if withScript { tapped.append(result.delivery) } else { plain.append(result.delivery) }
                posts.append(result.post)
            }
        }
        return Figures(deliveryMicros: median(plain), deliveryWithScriptMicros: median(tapped), postMicros: median(posts), webkitVersion: version)
    }

    private static func once(runner: String, directory: String, messages: Int, withScript: Bool) async throws -> (delivery: Double, post: Double, version: String) {
        let host = BridgeHost(hostVersion: "1.0.0")
        var configuration = WebKitJourneyConfiguration(uri: URL(fileURLWithPath: directory + "/index.html").absoluteString)
        configuration.headless = true
        configuration.runnerPath = runner
        let reports = Counter()
        if withScript {
            configuration.userScripts = [OutgoingTapScript.source]
            configuration.reportHandlers = [OutgoingTapScript.handlerName: { _ in reports.value += 1 }]
        }
        let loaded = Counter()
        let journey = try await WebKitJourney.start(host: host, configuration: configuration) { notice in
            if case .loaded = notice { loaded.value += 1 }
        }
        defer { Task { await journey.stop() } }
        try await until("the page to load") { loaded.value > 0 }
        // One delivery first, so the probe for GBGBridge's no-op receive is done with.
        host.send(event: "bench.warmup")
        try await until("the warm-up delivery") { (try? await journey.query("window.count")) == "1" }
        let reportsBefore = reports.value

        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<messages { host.send(event: "bench.ping", data: ["i": .number(Double(index))]) }
        try await until("the page to receive \(messages) messages") {
            (try? await journey.query("window.count")) == "\(messages + 1)" && (!withScript || reports.value - reportsBefore >= messages)
        }
        let delivery = clock.now - start

        let received = Counter()
        let token = host.addObserver { change in
            if case .traffic(let record) = change, record.direction == .received, record.message.payload.action == "bench.post" {
                Task { @MainActor in received.value += 1 }
            }
        }
        defer { host.removeObserver(token) }
        let postStart = clock.now
        _ = try await journey.query("burst(\(messages)); 0")
        try await until("the host to receive \(messages) posts") { received.value >= messages }
        let post = clock.now - postStart
        return (micros(delivery) / Double(messages), micros(post) / Double(messages), journey.webkitVersion)
    }

    @MainActor
    private final class Counter {
        var value = 0
    }

    private static func until(_ what: String, _ condition: @MainActor () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { throw BenchError("WebKit: timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    private static func micros(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000_000 + Double(duration.components.attoseconds) / 1_000_000_000_000
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
