import Foundation
import TestSupport
import Testing

// `bridge-inspector-bench --instructions` counts instructions under valgrind, far too slow for the
// suite: these tests never run valgrind. They check the parts around it through the built bench:
// the counts read from callgrind outputs (written here by hand) and the subtraction of the two
// runs, the clear refusal without valgrind, and that each workload valgrind would run finishes.

@Suite("bridge-inspector-bench --instructions, without valgrind")
struct InstructionCountBenchTests {
    /// A callgrind output file of one thread as valgrind 3.19 writes it, shortened: the header,
    /// a function the thread ran, and its totals.
    static func callgrindFile(thread: Int, function: String, events: String = "Ir", totals: String?, summary: String? = nil) -> String {
        var lines = [
            "# callgrind format", "version: 1", "creator: callgrind-3.19.0", "pid: 4242", "cmd: bridge-inspector-bench", "part: 1",
            "thread: \(thread)", "", "positions: line", "events: \(events)",
        ]
        if let summary { lines.append("summary: \(summary)") }
        lines += ["", "ob=(1) /bench", "fl=(1) ???", "fn=(1) \(function)", "0 17"]
        if let totals { lines += ["", "totals: \(totals)"] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes every file `--instructions` reads for runs of 10 and 20 messages; `main(path, count)`
    /// is the main thread's count, and the with-agent runs have an agent and a client thread.
    /// With `stalled`, the run with a stalled client too is written (its host thread
    /// `main("host-receive-agent-stalled", count)`, its agent `stalled(count)`).
    static func writeOutputs(
        in directory: String, main: (String, Int) -> Int, agent: (Int) -> Int, client: (Int) -> Int, stalled: ((Int) -> Int)? = nil
    ) throws {
        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        let paths = ["host-receive", "host-receive-agent", "client-decode", "tui-ingest"] + (stalled == nil ? [] : ["host-receive-agent-stalled"])
        for path in paths {
            for count in [10, 20] {
                let prefix = "callgrind.\(path).\(count)"
                // The main thread's file in the two forms valgrind writes: with `totals:`, and
                // (client-decode) with only `summary:` and a second event after `Ir`.
                if path == "client-decode" {
                    try write("\(prefix)-01", callgrindFile(thread: 1, function: "main", events: "Ir Dr", totals: nil, summary: "\(main(path, count)) 5"))
                } else {
                    try write("\(prefix)-01", callgrindFile(thread: 1, function: "main", totals: "\(main(path, count))"))
                }
                try write("\(prefix).log", "")
                // A thread of the Swift runtime that must not be taken for anything.
                try write("\(prefix)-02", callgrindFile(thread: 2, function: "swift_task_enqueueGlobal", totals: "999999"))
                if path == "host-receive-agent" || path == "host-receive-agent-stalled" {
                    let agentCount = path == "host-receive-agent" ? agent(count) : stalled?(count) ?? 0
                    try write("\(prefix)-03", callgrindFile(
                        thread: 3, function: "$s14InspectorAgent0B4LoopC3run33_ABCDEFLLyyF", totals: "\(agentCount)"))
                    try write("\(prefix)-04", callgrindFile(
                        thread: 4, function: "$s25BridgeInspectorBenchmarks15FollowingClientC3run33_ABCDEFLL10socketPathySS_tF",
                        totals: "\(client(count))"))
                }
            }
        }
    }

    static func bench() throws -> String {
        try #require(builtProduct("bridge-inspector-bench"), "build the bridge-inspector-bench product first (swift build)")
    }

    @Test("--instructions-from reads each thread's count from the callgrind outputs and reports (I(2N) - I(N)) / N")
    func countsPerMessageFromOutputs() async throws {
        let directory = try TemporaryDirectory(prefix: "bi-cg")
        // Per message: host 20,000; with agent 21,000 on the host's thread; agent 8,000;
        // client 9,000; client decode 3,000; TUI ingest 4,000. Each run also pays a fixed
        // start-up cost, which the subtraction must cancel.
        let perMessage = ["host-receive": 20_000, "host-receive-agent": 21_000, "client-decode": 3_000, "tui-ingest": 4_000]
        try Self.writeOutputs(
            in: directory.path, main: { path, count in 5_000_000 + count * (perMessage[path] ?? 0) },
            agent: { 2_000_000 + $0 * 8_000 }, client: { 3_000_000 + $0 * 9_000 })
        let object = try await benchJSONRun(["--instructions-from", directory.path, "--json"]).object
        func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
        #expect(number("instr_host_receive_per_msg") == 20_000)
        #expect(number("instr_host_receive_with_agent_per_msg") == 21_000)
        #expect(number("instr_agent_on_host_thread_per_msg") == 1_000)
        #expect(number("instr_agent_thread_per_msg") == 8_000)
        #expect(number("instr_following_client_thread_per_msg") == 9_000)
        #expect(number("instr_client_decode_per_frame") == 3_000)
        #expect(number("instr_tui_ingest_per_frame") == 4_000)
        #expect(number("instr_ratio_agent_and_client_over_host_receive") == 0.85)
        #expect(number("instr_ratio_agent_on_host_thread_over_host_receive") == 0.05)
        #expect(number("instr_messages_small_run") == 10)
        #expect(number("instr_messages_large_run") == 20)
        #expect(object["instr_callgrind"] as? String == "callgrind-3.19.0")
        // Outputs without the stalled client's run (a bench from before it was counted) give
        // no stalled figures rather than an error.
        #expect(object["instr_host_receive_with_agent_stalled_per_msg"] == nil)
    }

    @Test("--instructions-from reports the host's and the agent's threads with a stalled client too")
    func stalledClientCounts() async throws {
        let directory = try TemporaryDirectory(prefix: "bi-cg")
        let perMessage = ["host-receive": 20_000, "host-receive-agent": 21_000, "host-receive-agent-stalled": 21_500, "client-decode": 3_000, "tui-ingest": 4_000]
        try Self.writeOutputs(
            in: directory.path, main: { path, count in 5_000_000 + count * (perMessage[path] ?? 0) },
            agent: { 2_000_000 + $0 * 8_000 }, client: { 3_000_000 + $0 * 9_000 }, stalled: { 2_500_000 + $0 * 8_800 })
        let object = try await benchJSONRun(["--instructions-from", directory.path, "--json"]).object
        func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
        #expect(number("instr_host_receive_with_agent_stalled_per_msg") == 21_500)
        #expect(number("instr_agent_on_host_thread_stalled_per_msg") == 1_500)
        #expect(number("instr_agent_thread_stalled_per_msg") == 8_800)
        #expect(number("instr_ratio_agent_on_host_thread_stalled_over_host_receive") == 0.075)
        #expect(number("instr_agent_thread_per_msg") == 8_000)
    }

    @Test("--instructions-from refuses outputs where a path is missing or the larger run counted less")
    func refusesInconsistentOutputs() async throws {
        let binary = try Self.bench()
        let directory = try TemporaryDirectory(prefix: "bi-cg")
        // The larger run of the host alone counted fewer instructions: no figure, an error.
        try Self.writeOutputs(
            in: directory.path, main: { path, count in path == "host-receive" ? 1_000_000 - count : 1_000_000 + count },
            agent: { $0 }, client: { $0 })
        let fewer = try await onThread { try SpawnedProcess.run([binary, "--instructions-from", directory.path, "--json"], timeout: 60) }
        #expect(fewer.status == 1)
        #expect(fewer.output.isEmpty, "no figures: \(fewer.output)")
        #expect(fewer.errors.contains("counted fewer instructions"), "\(fewer.errors)")

        try FileManager.default.removeItem(atPath: directory.file("callgrind.tui-ingest.20-01"))
        try FileManager.default.removeItem(atPath: directory.file("callgrind.tui-ingest.20-02"))
        try FileManager.default.removeItem(atPath: directory.file("callgrind.tui-ingest.20.log"))
        let missing = try await onThread { try SpawnedProcess.run([binary, "--instructions-from", directory.path], timeout: 60) }
        #expect(missing.status == 1)
        #expect(missing.errors.contains("tui-ingest ran with [10] messages"), "\(missing.errors)")
    }

    @Test("--instructions without valgrind says how to install it and reports no figure")
    func withoutValgrindSaysSo() async throws {
        let binary = try Self.bench()
        let run = try await onThread {
            try SpawnedProcess.run([binary, "--instructions", "--valgrind", "/nonexistent/valgrind", "--json"], timeout: 60)
        }
        #expect(run.status == 1)
        #expect(run.output.isEmpty, "no figures: \(run.output)")
        #expect(run.errors.contains("apt-get install valgrind"), "\(run.errors)")
        #expect(run.errors.contains("/nonexistent/valgrind is not an executable"), "\(run.errors)")
    }

    @Test("each workload --instructions runs under valgrind finishes on its own", arguments: ["host-receive", "host-receive-agent", "host-receive-agent-stalled", "client-decode", "tui-ingest"])
    func workloadFinishes(path: String) async throws {
        let binary = try Self.bench()
        let run = try await onThread {
            try SpawnedProcess.run(
                [binary, "--instructions-workload", path, "--instruction-messages", "100", "--instructions-feed", "200"], timeout: 120)
        }
        #expect(run.status == 0, "exit status \(run.status.map(String.init) ?? "none (killed after 120 s)"); stderr:\n\(run.errors)")
    }
}
