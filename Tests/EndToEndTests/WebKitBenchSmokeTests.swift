import Foundation
import TestSupport
import Testing

// Not a timed test: checks that `bridge-inspector-bench --smoke --webkit-only --json` runs to the
// end in real WebKit and reports every figure docs/performance.md names (section "In real WebKit").

@Suite("bridge-inspector-bench: the figures in real WebKit", .enabled(if: WebKitRunnerBuild.runs, Comment(rawValue: WebKitRunnerBuild.skipNote)))
struct WebKitBenchSmokeTests {
    @Test("--smoke --webkit-only --json finishes and reports every WebKit figure as a positive number")
    func webKitOnlySmokeRun() async throws {
        let run = try await benchJSONRun(["--smoke", "--webkit-only", "--json"])
        let webkit = try #require(run.object["webkit"] as? [String: Any], "no webkit figures: \(run.errors)")
        for key in ["delivery_us", "delivery_with_page_script_us", "page_script_ratio", "post_us", "post_with_breakpoint_us", "breakpoint_ratio"] {
            let value = (webkit[key] as? NSNumber)?.doubleValue
            #expect(value.map { $0.isFinite && $0 > 0 } == true, "\(key) is \(String(describing: webkit[key]))")
        }
        #expect(webkit["webkit_version"] as? String != nil)
        #expect(run.errors.contains("In real WebKit"), "the table goes to stderr: \(run.errors)")
        #expect(!run.errors.contains("Host throughput"), "--webkit-only runs nothing else")
    }
}
