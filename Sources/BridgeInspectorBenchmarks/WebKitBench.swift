import BridgeCore
import Foundation
import GBGBridgeInspector
import InspectorAgent
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
        /// Median µs per post, the journey to the host; and with a breakpoint set through the
        /// GBGBridge adapter (matching none of them), so each post waits in the page for its verdict.
        var postMicros: Double
        var postWithBreakpointMicros: Double
        var webkitVersion: String

        var scriptRatio: Double { deliveryWithScriptMicros / deliveryMicros }
        var breakpointRatio: Double { postWithBreakpointMicros / postMicros }

        func add(to report: inout Report) {
            var webkit = Report()
            webkit.set("webkit_version", webkitVersion)
            webkit.set("delivery_us", deliveryMicros)
            webkit.set("delivery_with_page_script_us", deliveryWithScriptMicros)
            webkit.set("page_script_ratio", scriptRatio)
            webkit.set("post_us", postMicros)
            webkit.set("post_with_breakpoint_us", postWithBreakpointMicros)
            webkit.set("breakpoint_ratio", breakpointRatio)
            report.set("webkit", webkit)
        }

        func add(to table: inout Table) {
            table.title("In real WebKit (WebKitGTK \(webkitVersion), through bridge-inspector-webkit)")
            table.row("delivery, host -> journey's receive", Format.fixed(deliveryMicros, 1) + " µs", "per message, evaluate_javascript")
            table.row("delivery with the adapter's page script", Format.fixed(deliveryWithScriptMicros, 1) + " µs", "report back to the host included")
            table.row("page script's cost, as a ratio", Format.fixed(scriptRatio, 2) + "x")
            table.row("post, journey -> host", Format.fixed(postMicros, 1) + " µs", "per message, script message handler")
            table.row("post with a breakpoint set (the page asks)", Format.fixed(postWithBreakpointMicros, 1) + " µs", "GBGBridge adapter, matching none")
            table.row("a breakpoint's cost per post, as a ratio", Format.fixed(breakpointRatio, 2) + "x")
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
        var heldPosts: [Double] = []
        var version = ""
        for run in 0..<runs {
            let order: [Setup] = run % 2 == 0 ? [.plain, .pageScript, .breakpoint] : [.breakpoint, .pageScript, .plain]
            for setup in order {
                BridgeInspectorBench.progress("WebKit run \(run + 1)/\(runs): \(setup.rawValue)")
                let result = try await once(runner: runner, directory: directory, messages: messages, setup: setup, scratch: scratch)
                version = result.version
                switch setup {
                case .plain:
                    plain.append(result.delivery)
                    posts.append(result.post)
                case .pageScript: tapped.append(result.delivery)
                case .breakpoint: heldPosts.append(result.post)
                }
            }
        }
        return Figures(
            deliveryMicros: median(plain), deliveryWithScriptMicros: median(tapped), postMicros: median(posts),
            postWithBreakpointMicros: median(heldPosts), webkitVersion: version)
    }

    /// What runs in the page besides the bootstrap.
    enum Setup: String {
        case plain = "the bootstrap only"
        case pageScript = "with the adapter's page script"
        case breakpoint = "with the page scripts and a breakpoint through the GBGBridge adapter"
    }

    /// An interceptor with a breakpoint that matches nothing: every post is asked about.
    final class NothingHeld: BridgeInterceptor {
        func hold(_ message: BridgeMessage, direction: TrafficRecord.Direction, json: Data) -> HoldRequest? { nil }
    }

    /// The runner's page, for the adapter's verdicts.
    final class BenchPage: JourneyPage {
        weak var journey: WebKitJourney?
        var unavailableReason: String? { journey == nil ? "no page" : nil }
        var canHold: Bool { true }
        func post(asJourney post: JourneyPost) { journey?.evaluate(post.script) }
        func send(_ command: PageInterceptCommand) { journey?.evaluate(command.script) }
    }

    private static func once(
        runner: String, directory: String, messages: Int, setup: Setup, scratch: ScratchDirectory
    ) async throws -> (delivery: Double, post: Double, version: String) {
        let withScript = setup != .plain
        let host = BridgeHost(hostVersion: "1.0.0")
        var configuration = WebKitJourneyConfiguration(uri: URL(fileURLWithPath: directory + "/index.html").absoluteString)
        configuration.headless = true
        configuration.runnerPath = runner
        let reports = Counter()
        let page = BenchPage()
        var inspector: GBGBridgeInspector<BridgeHost>?
        if setup == .breakpoint {
            inspector = try GBGBridgeInspector.start(
                api: host, hostVersion: "1.0.0", name: "webkit-bench", socketPath: scratch.path + "/webkit-bench.sock", journeyPage: page)
        }
        defer { inspector?.stop() }
        let adapter = inspector?.adapter
        if withScript {
            configuration.userScripts = [OutgoingTapScript.source] + (setup == .breakpoint ? [PageInterceptScript.source] : [])
            configuration.reportHandlers = [
                OutgoingTapScript.handlerName: { body in
                    reports.value += 1
                    adapter?.handle(OutgoingTapReport(body: body))
                }
            ]
        }
        let loaded = Counter()
        let journey = try await WebKitJourney.start(host: host, configuration: configuration) { notice in
            if case .loaded = notice { loaded.value += 1 }
        }
        defer { Task { await journey.stop() } }
        page.journey = journey
        adapter?.setInterceptor(setup == .breakpoint ? NothingHeld() : nil)
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
