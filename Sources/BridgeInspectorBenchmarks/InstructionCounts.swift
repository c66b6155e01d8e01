import Foundation

/// `--instructions`: instructions per message of each per-message path, counted by valgrind's
/// callgrind, which counts the same on every run where timings on a shared machine drift by tens
/// of percent.
///
/// Each path (``InstructionPath``) runs twice under callgrind, a fixed workload of N and of 2N
/// messages (the bench re-executing itself with the hidden `--instructions-workload`), with
/// `--separate-threads=yes` so that each thread is counted in a file of its own. Everything the
/// two runs share (starting the process, making the inputs, attaching the agent) cancels in the
/// difference: per message = (I(2N) − I(N)) / N.
///
/// Whole threads are counted rather than a function chosen with `--toggle-collect`: Swift's
/// mangled names (which valgrind does not demangle) and async functions, split into pieces at
/// each suspension, make a toggled function's extent unreliable, and the agent's and the
/// client's threads are wanted whole anyway.
struct InstructionCounts {
    /// The instructions of each thread of interest, per message (per traffic line for the
    /// client's decode and the TUI's ingest).
    var hostReceive: Double
    var hostReceiveWithAgent: Double
    var agentThread: Double
    var followingClientThread: Double
    var clientDecode: Double
    var tuiIngest: Double
    /// The host's and the agent's threads with a stalled client too (nil when the outputs read
    /// hold no such run, such as those of a bench from before it was counted).
    var stalled: (host: Double, agent: Double)?
    /// The GBGBridge adapter's main thread per message, natively and through the public API (nil
    /// when the outputs read hold no adapter runs).
    var adapter: AdapterInstructionCounts?
    /// The two message counts each path ran with.
    var messages: (small: Int, large: Int)

    /// The agent's cost on the host's thread, per message.
    var agentOnHostThread: Double { hostReceiveWithAgent - hostReceive }
    /// Target at most 1: the agent's and the client's threads together cost no more than the
    /// host's own receive.
    var agentAndClientOverHostReceive: Double { (agentThread + followingClientThread) / hostReceive }
    /// Target at most 0.05.
    var agentOnHostThreadOverHostReceive: Double { agentOnHostThread / hostReceive }
    /// The agent's cost on the host's thread with a stalled client too, per message.
    var agentOnHostThreadStalled: Double? { stalled.map { $0.host - hostReceive } }

    /// A function the agent's thread runs and no other (the mangled `AgentLoop`, whose thread
    /// body is its `run()`).
    static let agentThreadFragment = "14InspectorAgent0B4LoopC"
    /// A function only the following client's thread runs.
    static let clientThreadFragment = "15FollowingClientC"

    /// The out-file prefix of `path` run with `count` messages, in `directory`.
    static func outFile(_ path: InstructionPath, count: Int, in directory: String) -> String {
        directory + "/callgrind.\(path.rawValue).\(count)"
    }

    /// Per message from the runs of two sizes: the difference of a thread's counts over the
    /// difference of the message counts.
    static func perMessage(small: Int, large: Int, messages: (small: Int, large: Int)) throws -> Double {
        guard messages.large > messages.small else { throw BenchError("the two runs must differ in size (\(messages.small) and \(messages.large) messages)") }
        guard large >= small else {
            throw BenchError("the run of \(messages.large) messages counted fewer instructions (\(large)) than the run of \(messages.small) (\(small))")
        }
        return Double(large - small) / Double(messages.large - messages.small)
    }

    /// Reads the counts from the callgrind outputs in `directory` (as `--instructions` writes
    /// them, or kept with `--callgrind-dir`): each path's files of its two sizes.
    static func read(from directory: String) throws -> InstructionCounts {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        // callgrind.<path>.<count>-<thread>
        func sizes(_ path: InstructionPath) -> [Int] {
            let prefix = "callgrind.\(path.rawValue)."
            return Set(names.filter { $0.hasPrefix(prefix) }.compactMap { name in
                name.dropFirst(prefix.count).split(separator: "-").first.flatMap { Int($0) }
            }).sorted()
        }
        let counts = sizes(.hostReceive)
        guard counts.count == 2 else {
            throw BenchError("\(directory) holds no callgrind outputs of two sizes for \(InstructionPath.hostReceive.rawValue) (found \(counts))")
        }
        let messages = (small: counts[0], large: counts[1])
        let hasStalled = !sizes(.hostReceiveWithAgentStalled).isEmpty
        let hasAdapter = InstructionPath.allCases.contains { $0.adapterCase != nil && !sizes($0).isEmpty }
        for path in InstructionPath.allCases
        where sizes(path) != counts && (path != .hostReceiveWithAgentStalled || hasStalled) && (path.adapterCase == nil || hasAdapter) {
            throw BenchError("\(directory): \(path.rawValue) ran with \(sizes(path)) messages, \(InstructionPath.hostReceive.rawValue) with \(counts)")
        }
        /// The instructions of the thread `pick` chooses, in the run of each size, per message.
        func per(_ path: InstructionPath, _ what: String, _ pick: ([CallgrindOutput]) -> CallgrindOutput?) throws -> Double {
            var totals: [Int] = []
            for count in [messages.small, messages.large] {
                let threads = try CallgrindOutput.threads(of: outFile(path, count: count, in: directory))
                guard let thread = pick(threads) else {
                    throw BenchError("no thread of \(what) among the callgrind outputs of \(path.rawValue) with \(count) messages")
                }
                totals.append(thread.instructions)
            }
            return try perMessage(small: totals[0], large: totals[1], messages: messages)
        }
        let main: ([CallgrindOutput]) -> CallgrindOutput? = { $0.first { $0.thread == 1 } }
        let agent: ([CallgrindOutput]) -> CallgrindOutput? = { $0.first { $0.thread != 1 && $0.ran(agentThreadFragment) } }
        var stalled: (host: Double, agent: Double)?
        if hasStalled {
            stalled = (
                try per(.hostReceiveWithAgentStalled, "the host (the main thread)", main),
                try per(.hostReceiveWithAgentStalled, "the agent", agent)
            )
        }
        var adapter: AdapterInstructionCounts?
        if hasAdapter {
            var perMessage: [InstructionPath.AdapterKind: (native: Double, publicAPI: Double)] = [:]
            for kind in InstructionPath.AdapterKind.allCases {
                perMessage[kind] = (
                    try per(.adapter(kind, .native), "the app (the main thread)", main),
                    try per(.adapter(kind, .publicAPI), "the app (the main thread)", main)
                )
            }
            adapter = AdapterInstructionCounts(perMessage: perMessage)
        }
        return InstructionCounts(
            hostReceive: try per(.hostReceive, "the host (the main thread)", main),
            hostReceiveWithAgent: try per(.hostReceiveWithAgent, "the host (the main thread)", main),
            agentThread: try per(.hostReceiveWithAgent, "the agent", agent),
            followingClientThread: try per(
                .hostReceiveWithAgent, "the following client", { $0.first { $0.thread != 1 && $0.ran(clientThreadFragment) } }),
            clientDecode: try per(.clientDecode, "the client's decoding (the main thread)", main),
            tuiIngest: try per(.tuiIngest, "the TUI's ingest (the main thread)", main),
            stalled: stalled, adapter: adapter, messages: messages)
    }

    /// The figures in the JSON object.
    func add(to report: inout Report) {
        report.set("instr_messages_small_run", messages.small)
        report.set("instr_messages_large_run", messages.large)
        report.set("instr_host_receive_per_msg", hostReceive.rounded())
        report.set("instr_host_receive_with_agent_per_msg", hostReceiveWithAgent.rounded())
        report.set("instr_agent_on_host_thread_per_msg", agentOnHostThread.rounded())
        report.set("instr_agent_thread_per_msg", agentThread.rounded())
        report.set("instr_following_client_thread_per_msg", followingClientThread.rounded())
        report.set("instr_client_decode_per_frame", clientDecode.rounded())
        report.set("instr_tui_ingest_per_frame", tuiIngest.rounded())
        report.set("instr_ratio_agent_and_client_over_host_receive", agentAndClientOverHostReceive)
        report.set("instr_ratio_agent_on_host_thread_over_host_receive", agentOnHostThreadOverHostReceive)
        if let stalled, let agentOnHostThreadStalled {
            report.set("instr_host_receive_with_agent_stalled_per_msg", stalled.host.rounded())
            report.set("instr_agent_on_host_thread_stalled_per_msg", agentOnHostThreadStalled.rounded())
            report.set("instr_agent_thread_stalled_per_msg", stalled.agent.rounded())
            report.set("instr_ratio_agent_on_host_thread_stalled_over_host_receive", agentOnHostThreadStalled / hostReceive)
        }
        adapter?.add(to: &report)
    }

    /// The figures in the table.
    func add(to table: inout Table) {
        table.title("Instructions per message (callgrind; runs of \(Format.count(Double(messages.small))) and \(Format.count(Double(messages.large))) messages, difference over difference)")
        func row(_ label: String, _ value: Double, _ note: String = "") { table.row(label, Format.count(value), note) }
        row("host alone: the host's thread (receive, answer, deliver)", hostReceive)
        row("host with agent + following client: the host's thread", hostReceiveWithAgent)
        row("  of which the agent (the difference)", agentOnHostThread,
            Format.fixed(agentOnHostThreadOverHostReceive * 100, 1) + " % of the host's receive  "
                + Format.verdict(agentOnHostThreadOverHostReceive <= 0.05, "≤ 5 %"))
        row("the agent's thread", agentThread)
        row("the following client's thread (read, decode)", followingClientThread)
        table.row("  agent + client over the host's receive", Format.fixed(agentAndClientOverHostReceive * 100, 0) + " %",
            Format.verdict(agentAndClientOverHostReceive <= 1, "≤ 100 %"))
        if let stalled, let agentOnHostThreadStalled {
            let ratio = agentOnHostThreadStalled / hostReceive
            row("with a stalled client too: the host's thread", stalled.host)
            row("  of which the agent (the difference)", agentOnHostThreadStalled,
                Format.fixed(ratio * 100, 1) + " % of the host's receive  " + Format.verdict(ratio <= 0.05, "≤ 5 %"))
            row("the agent's thread, with a stalled client too", stalled.agent)
        }
        row("client: decode + LiveState.apply, per traffic line", clientDecode)
        row("TUI: decode + handle(.frame), per traffic line", tuiIngest)
        adapter?.add(to: &table)
    }
}

/// The GBGBridge adapter's instructions on the app's main thread per message, natively and
/// through the public API (the adapter paths of ``InstructionPath``): the target is the
/// public API at most 1.5 times the native agent for every kind.
struct AdapterInstructionCounts {
    /// Per kind: the main thread's instructions per message with each setup.
    var perMessage: [InstructionPath.AdapterKind: (native: Double, publicAPI: Double)]

    /// The public API's count over the native one, for `kind`.
    func ratio(_ kind: InstructionPath.AdapterKind) -> Double {
        guard let counts = perMessage[kind], counts.native > 0 else { return 0 }
        return counts.publicAPI / counts.native
    }

    func add(to report: inout Report) {
        for kind in InstructionPath.AdapterKind.allCases {
            guard let counts = perMessage[kind] else { continue }
            report.set("instr_adapter_\(kind.rawValue)_native_per_msg", counts.native.rounded())
            report.set("instr_adapter_\(kind.rawValue)_public_api_per_msg", counts.publicAPI.rounded())
            report.set("instr_adapter_\(kind.rawValue)_ratio_public_api_over_native", ratio(kind))
        }
    }

    func add(to table: inout Table) {
        for kind in InstructionPath.AdapterKind.allCases {
            guard let counts = perMessage[kind] else { continue }
            table.row("adapter, \(kind.label): native", Format.count(counts.native))
            table.row("adapter, \(kind.label): public API", Format.count(counts.publicAPI),
                "ratio " + Format.fixed(ratio(kind), 2) + "  " + Format.verdict(ratio(kind) <= 1.5, "≤ 1.5"))
        }
    }
}

extension InstructionCounts {
    /// Runs every path under callgrind with `options.instructionMessages` and twice as many
    /// messages, keeping the outputs in `--callgrind-dir` or in `scratch`, and reads the counts;
    /// or, with `--instructions-from`, only reads them. Also returns the callgrind that counted
    /// (the outputs' `creator:`, e.g. `callgrind-3.19.0`).
    static func measure(_ options: Options, scratch: ScratchDirectory) throws -> (InstructionCounts, callgrind: String) {
        /// The counts in `directory`, and who wrote them.
        func counted(in directory: String) throws -> (InstructionCounts, callgrind: String) {
            let counts = try InstructionCounts.read(from: directory)
            return (counts, try CallgrindOutput.creator(in: outFile(.hostReceive, count: counts.messages.small, in: directory)))
        }
        if let directory = options.instructionsFrom { return try counted(in: directory) }
        let directory = options.callgrindDirectory ?? scratch.file("callgrind")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let runner = try CallgrindRunner.prepare(explicitPath: options.valgrindPath, in: directory)
        let version = try runner.version()
        let base = options.instructionMessages
        for path in InstructionPath.allCases {
            for feed in [base, 2 * base] {
                BridgeInspectorBench.progress("\(version): \(path.rawValue), \(feed) messages")
                let outFile = outFile(path, count: feed, in: directory)
                // Outputs of an earlier run of the same size would be counted with this one's.
                for old in try CallgrindOutput.threadFiles(of: outFile) { try FileManager.default.removeItem(atPath: old.path) }
                try runner.count(path, base: base, feed: feed, outFile: outFile)
            }
        }
        return try counted(in: directory)
    }
}
