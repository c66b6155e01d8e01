import Foundation
import TestSupport
import Testing

// The benchmark is not a timed test: this only checks that `bridge-inspector-bench --smoke --json`
// runs to the end on a tiny workload and reports every figure docs/performance.md describes.

@Suite("bridge-inspector-bench smoke run")
struct BenchmarkSmokeTests {
    /// Every figure docs/performance.md names.
    static let requiredKeys = [
        "host_msgs_per_s_no_agent", "host_msgs_per_s_following_client", "host_msgs_per_s_stalled_client",
        "ratio_following", "ratio_stalled", "agent_bytes_held_stalled_client",
        "latency_us_p50", "latency_us_p99", "latency_us_p999",
        "raw_socket_msgs_per_s", "print_logging_msgs_per_s",
        "ratio_following_over_raw_socket", "ratio_following_over_print_logging",
        "large_payload_ms", "large_payload_raw_socket_ms",
        "tui_frame_ms_1m", "tui_bytes_per_message_1m", "tui_filter_ms_1m", "tui_key_under_load_ms_p99",
    ]

    @Test("--smoke --json finishes and reports every figure as a number")
    func smokeRunReportsEveryFigure() async throws {
        let binary = try #require(builtProduct("bridge-inspector-bench"), "build the bridge-inspector-bench product first (swift build)")
        // Waiting for the run blocks, so it happens on a thread of its own, never on the
        // cooperative pool that every other test shares.
        let run = try await onThread { try SpawnedProcess.run([binary, "--smoke", "--json"], timeout: 120) }
        #expect(run.status == 0, "exit status \(run.status.map(String.init) ?? "none (killed after 120 s)"); stderr:\n\(run.errors)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
            "stdout is not one JSON object: \(run.output)")
        for key in Self.requiredKeys {
            let value = object[key]
            #expect((value as? NSNumber)?.doubleValue.isFinite == true, "\(key) is \(String(describing: value))")
        }
        let machine = object["machine"] as? [String: Any]
        #expect(machine?["cores"] is NSNumber, "the machine is reported")
        // The table goes to stderr alongside the JSON.
        #expect(run.errors.contains("Host throughput"))
    }
}
