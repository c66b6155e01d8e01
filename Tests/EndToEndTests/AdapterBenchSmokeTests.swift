import Foundation
import TestSupport
import Testing

// Not a timed test: checks that `bridge-inspector-bench --smoke --adapter-only --json` runs to the
// end and reports every figure of the native vs GBGBridge public-API comparison that
// docs/performance.md describes (section "The GBGBridge public-API adapter").

@Suite("bridge-inspector-bench: the adapter's figures")
struct AdapterBenchSmokeTests {
    /// Every adapter figure docs/performance.md names.
    static var requiredKeys: [String] {
        var keys = ["adapter_poll_ns_p50", "adapter_poll_ns_p99", "adapter_poll_main_thread_percent"]
        for kind in ["pending_request", "received_event", "sent_response", "sent_event"] {
            for path in ["native", "public_api"] {
                keys += ["adapter_\(kind)_ns_cpu_\(path)", "adapter_\(kind)_ns_p50_\(path)", "adapter_\(kind)_ns_p99_\(path)"]
            }
            keys.append("adapter_\(kind)_cpu_ratio_public_api_over_native")
        }
        return keys
    }

    @Test("--smoke --adapter-only --json finishes and reports every adapter figure as a positive number")
    func adapterOnlySmokeRun() async throws {
        let run = try await benchJSONRun(["--smoke", "--adapter-only", "--json"])
        let object = run.object
        for key in Self.requiredKeys {
            let value = (object[key] as? NSNumber)?.doubleValue
            #expect(value.map { $0.isFinite && $0 > 0 } == true, "\(key) is \(String(describing: object[key]))")
        }
        #expect((object["machine"] as? [String: Any])?["cores"] is NSNumber, "the machine is reported")
        #expect(run.errors.contains("native agent vs GBGBridge public-API adapter"), "the table goes to stderr: \(run.errors)")
        #expect(!run.errors.contains("Host throughput"), "--adapter-only runs nothing else")
    }
}
