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
        "large_payload_ms", "large_payload_raw_socket_ms", "large_payload_client_cpu_ms", "large_payload_client_page_faults",
        "large_payload_client_framing_cpu_ms", "large_payload_client_framing_cpu_ms_fresh_buffer",
        "tui_frame_ms_1m", "tui_bytes_per_message_1m", "tui_filter_ms_1m", "tui_key_under_load_ms_p99",
    ] + tuiKeys + largeKeys

    /// The large message's figures, stage by stage, which `--large-only` reports with the 30 MiB
    /// snapshot's decode.
    static let largeKeys = [
        "large_payload_ms", "large_payload_client_cpu_ms", "large_payload_stages_first_byte_ms", "large_payload_stages_last_byte_ms",
        "large_payload_client_line_cpu_ms", "large_payload_client_decode_cpu_ms", "large_payload_client_decode_cpu_ms_through_data",
    ]

    /// The TUI's and the client's decoding figures, which `--tui-only` reports alone.
    static let tuiKeys = [
        "tui_frame_ms_1m", "tui_bytes_per_message_1m", "tui_filter_ms_1m", "tui_key_under_load_ms_p99",
        "tui_ingest_msgs_per_s", "tui_ingest_cpu_us_per_frame", "client_frame_decode_per_s", "client_frame_decode_cpu_us_per_frame",
        "tui_frame_ms_1m_doctor", "tui_frame_ms_1m_stats",
    ]

    @Test("--smoke --json finishes and reports every figure as a number")
    func smokeRunReportsEveryFigure() async throws {
        let run = try await benchJSONRun(["--smoke", "--json"])
        let object = run.object
        for key in Self.requiredKeys {
            let value = object[key]
            #expect((value as? NSNumber)?.doubleValue.isFinite == true, "\(key) is \(String(describing: value))")
        }
        let machine = object["machine"] as? [String: Any]
        #expect(machine?["cores"] is NSNumber, "the machine is reported")
        // The table goes to stderr alongside the JSON.
        #expect(run.errors.contains("Host throughput"))
    }

    @Test("--smoke --large-only --json reports the large message's figures and the snapshot's decode, and nothing of the host's")
    func largeOnlyReportsTheLargeFigures() async throws {
        let object = try await benchJSONRun(["--smoke", "--large-only", "--json"]).object
        for key in Self.largeKeys + ["attach_large_log_snapshot_decode_ms"] {
            #expect((object[key] as? NSNumber)?.doubleValue.isFinite == true, "\(key) is \(String(describing: object[key]))")
        }
        #expect(object["host_msgs_per_s_no_agent"] == nil)
    }

    @Test("--smoke --tui-only --json reports the TUI's figures and nothing of the host's")
    func tuiOnlyReportsTheTUIFigures() async throws {
        let object = try await benchJSONRun(["--smoke", "--tui-only", "--json"]).object
        for key in Self.tuiKeys {
            #expect((object[key] as? NSNumber)?.doubleValue.isFinite == true, "\(key) is \(String(describing: object[key]))")
        }
        #expect(object["host_msgs_per_s_no_agent"] == nil)
    }

    @Test("--smoke --sessions-only --json reads, diffs, redacts and reruns a recording into a real host, and finds the changes it made")
    func sessionsOnlyReportsTheSessionFigures() async throws {
        let object = try await benchJSONRun(["--smoke", "--sessions-only", "--json"]).object
        let sessions = try #require(object["sessions"] as? [String: Any], "\(object)")
        for key in ["load_ms", "transcript_ms", "diff_same_ms", "diff_changed_ms", "redact_ms", "rerun_seconds", "rerun_messages_per_second"] {
            #expect((sessions[key] as? NSNumber)?.doubleValue.isFinite == true, "\(key) is \(String(describing: sessions[key]))")
        }
        #expect((sessions["differences_made"] as? Int).map { $0 > 0 } == true)
        #expect(sessions["differences_found"] as? Int == sessions["differences_made"] as? Int, "every changed answer is found, nothing else: \(sessions)")
        #expect(sessions["rerun_exit_status"] as? Int == 0, "the host answered the rerun as recorded: \(sessions)")
        #expect(object["host_msgs_per_s_no_agent"] == nil)
    }
}
