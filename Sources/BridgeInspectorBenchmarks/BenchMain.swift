import Foundation
import InspectorAgent
import InspectorClient

/// `bridge-inspector-bench`: the inspector's cost to the host, measured side by side with the
/// physical limit (raw Unix-socket writes of the same bytes) and with today's habit (a delegate
/// that prints every message). Figures and their meaning: `docs/performance.md`.
///
/// Build and run in release mode: `swift run -c release bridge-inspector-bench [--json]`.
@main
struct BridgeInspectorBench {
    @MainActor
    static func main() async {
        let options: Options
        do {
            options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit("\(error)".hasPrefix("usage") ? 0 : 2)
        }
        if let path = options.instructionWorkload {
            // Under valgrind, for `--instructions`: the workload alone, nothing printed, and
            // no suspension (InstructionPath says why).
            do {
                let scratch = try ScratchDirectory()
                defer { scratch.remove() }
                try path.run(base: options.instructionMessages, feed: options.instructionsFeed, scratch: scratch)
            } catch {
                FileHandle.standardError.write(Data("bridge-inspector-bench --instructions-workload \(path.rawValue): \(error)\n".utf8))
                exit(1)
            }
            exit(0)
        }
        do {
            let (report, table) = try await run(options)
            if options.json {
                FileHandle.standardError.write(Data(table.rendered.utf8))
                print(report.json())
            } else {
                print(table.rendered, terminator: "")
            }
        } catch {
            FileHandle.standardError.write(Data("bridge-inspector-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    static func progress(_ text: String) {
        FileHandle.standardError.write(Data("· \(text)\n".utf8))
    }

    @MainActor
    static func run(_ options: Options) async throws -> (Report, Table) {
        #if DEBUG
        progress("warning: this is a debug build; figures are only meaningful with -c release")
        #endif
        let machine = Machine.current()
        let loadAtStart = loadAverage()
        let ticksAtStart = CPUTicks.now()
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }

        // The documented defaults, except that a stalled client is kept (not disconnected after
        // 10 s) so that its cost is measured for the whole run.
        var limits = AgentLimits()
        limits.stalledClientSeconds = 3600
        let bench = HostBench(scratch: scratch, limits: limits)
        let adapterBench = AdapterBench(scratch: scratch, limits: limits)
        /// One section alone (`--adapter-only`, `--webkit-only`): its figures, the machine and the load.
        func only(_ flag: String, details: String = "", _ add: (inout Report, inout Table) -> Void) -> (Report, Table) {
            let loadAtEnd = loadAverage()
            let cpuShares = ticksAtStart.percentages(until: CPUTicks.now())
            var report = Report()
            var table = Table()
            table.text("bridge-inspector-bench \(flag) (\(options.mode.rawValue)\(options.mode == .smoke ? ": figures mean nothing" : "")\(details))")
            table.text("machine: \(machine.summary)")
            table.text(loadLine(loadAtStart: loadAtStart, loadAtEnd: loadAtEnd, cpuShares: cpuShares))
            add(&report, &table)
            report.set("machine", machineReport(machine, loadAtStart: loadAtStart, loadAtEnd: loadAtEnd, cpuShares: cpuShares))
            return (report, table)
        }
        if options.adapterOnly {
            progress("machine: \(machine.summary)")
            let adapter = try await AdapterFigures.measure(
                adapterBench, messages: options.adapterMessages, runs: options.adapterRuns, pollCalls: options.pollCalls)
            return only("--adapter-only") { adapter.add(to: &$0); adapter.add(to: &$1) }
        }
        if options.webKitOnly {
            progress("machine: \(machine.summary)")
            let webkit = try await WebKitBench.measure(scratch: scratch, messages: options.webKitMessages, runs: options.webKitRuns)
            return only("--webkit-only", details: ", \(options.webKitMessages) messages each way, \(options.webKitRuns) runs") {
                webkit.add(to: &$0)
                webkit.add(to: &$1)
            }
        }
        if options.sessionsOnly {
            progress("machine: \(machine.summary)")
            let sessions = try await SessionBench.run(count: options.sessionMessages, scratch: scratch)
            return only("--sessions-only", details: ", \(options.sessionMessages) messages") {
                sessions.add(to: &$0)
                sessions.add(to: &$1)
            }
        }
        if options.instructions || options.instructionsFrom != nil {
            progress("machine: \(machine.summary)")
            let (counts, callgrind) = try InstructionCounts.measure(options, scratch: scratch)
            return only("--instructions", details: ", counted by \(callgrind)") {
                counts.add(to: &$0)
                $0.set("instr_callgrind", callgrind)
                counts.add(to: &$1)
            }
        }
        if options.largeOnly {
            progress("machine: \(machine.summary)")
            let large = try await LargePayloadFigures.measure(bench, options: options)
            progress("attaching under load: a 30 MiB log, 16 KB events at 20/s")
            let attach = try await bench.attachUnderLoad(
                logMessages: max(1, Int(1_900 * options.attachScale)), messageBytes: 16_000, rate: 20)
            return only("--large-only", details: ", \(Format.megabytes(options.payloadBytes)) × \(options.payloadRuns)") { report, table in
                large.add(to: &report)
                report.set("attach_large_log_snapshot_decode_ms", attach.snapshotDecodeMs)
                report.set("attach_large_log_first_live_event_ms", attach.firstLiveEventMs)
                large.add(to: &table)
                table.title("Attaching to a \(Format.megabytes(attach.bytesToFirstLiveEvent)) log under load")
                table.row("the client decoding that snapshot (AgentFrame.decode)", Format.fixed(attach.snapshotDecodeMs, 1) + " ms",
                    "first live event after \(Format.fixed(attach.firstLiveEventMs, 1)) ms")
            }
        }
        if options.tuiOnly {
            progress("machine: \(machine.summary)")
            progress("TUI: \(options.tuiMessages) messages")
            let tui = try TUIBench.run(
                count: options.tuiMessages, renders: options.renders, filterRuns: options.filterRuns, keyCycles: options.keyCycles)
            let loadAtEnd = loadAverage()
            let cpuShares = ticksAtStart.percentages(until: CPUTicks.now())
            var report = Report()
            addTUIFigures(tui, to: &report)
            report.set("machine", machineReport(machine, loadAtStart: loadAtStart, loadAtEnd: loadAtEnd, cpuShares: cpuShares))
            var table = Table()
            table.text("bridge-inspector-bench --tui-only (\(options.mode.rawValue)\(options.mode == .smoke ? ": figures mean nothing" : ""))")
            table.text("machine: \(machine.summary)")
            table.text(loadLine(loadAtStart: loadAtStart, loadAtEnd: loadAtEnd, cpuShares: cpuShares))
            table.text(String(format: "TUI ingest %.0f frames/s (%.2f µs CPU each), client frame decode %.0f frames/s (%.2f µs CPU each), frame %.2f ms, %.0f B per message, slowest filter %.0f ms",
                tui.ingestMessagesPerSecond, tui.ingestCPUMicrosecondsPerFrame, tui.frameDecodePerSecond, tui.frameDecodeCPUMicrosecondsPerFrame, tui.frameMsAtEnd, tui.bytesPerMessageBeyondJSON, tui.filterMs.map(\.ms).max() ?? 0))
            return (report, table)
        }
        let messages = Workload.messages(options.messages)
        let averageBytes = Double(messages.reduce(0) { $0 + $1.count }) / Double(max(1, messages.count))

        // Host throughput: every setup once to warm up, then alternated runs.
        progress("machine: \(machine.summary)")
        progress("warming up")
        let warmup = Array(messages.prefix(min(messages.count, 20_000)))
        for setup in HostSetup.allCases { _ = try await bench.run(setup, messages: warmup) }
        var runs: [HostSetup: [HostRun]] = [:]
        var rawRuns: [Double] = []
        for round in 0..<options.runs {
            let order = HostSetup.allCases.indices.map { HostSetup.allCases[($0 + round) % HostSetup.allCases.count] }
            for setup in order {
                progress("host throughput run \(round + 1)/\(options.runs): \(setup.rawValue)")
                let result = try await bench.run(setup, messages: messages)
                runs[setup, default: []].append(result)
                try? await Task.sleep(for: .milliseconds(100))
            }
            progress("raw socket run \(round + 1)/\(options.runs)")
            rawRuns.append(try RawSocketBench.throughput(messages))
        }
        func medianRate(_ setup: HostSetup) -> Double { median(runs[setup, default: []].map(\.messagesPerSecond)) }
        let noAgent = medianRate(.noAgent)
        let following = medianRate(.following)
        let stalled = medianRate(.stalled)
        let printing = medianRate(.printLogging)
        // Ratios are taken within each round (the setups ran back to back) and the median of
        // those is reported: other work on the machine drifts over minutes, and pairing cancels
        // most of that drift.
        func pairedRatio(_ setup: HostSetup, over base: HostSetup) -> Double {
            let top = runs[setup, default: []].map(\.messagesPerSecond)
            let bottom = runs[base, default: []].map(\.messagesPerSecond)
            return median(zip(top, bottom).map { $0 / $1 })
        }
        let ratioFollowing = pairedRatio(.following, over: .noAgent)
        let ratioStalled = pairedRatio(.stalled, over: .noAgent)
        let ratioFollowingOverPrint = pairedRatio(.following, over: .printLogging)
        func medianReceiveCPU(_ setup: HostSetup) -> Double { median(runs[setup, default: []].map(\.receiveCPUMicrosPerMessage)) }
        let receiveCPUNoAgent = medianReceiveCPU(.noAgent)
        let receiveCPUFollowing = medianReceiveCPU(.following)
        let receiveCPUStalled = medianReceiveCPU(.stalled)
        let receiveCPUPrinting = medianReceiveCPU(.printLogging)
        let receiveCPUBusy = medianReceiveCPU(.busyNeighbour)
        let ratioBusy = pairedRatio(.busyNeighbour, over: .noAgent)
        let raw = median(rawRuns)
        let clientSeconds = median(runs[.following, default: []].compactMap(\.clientSeconds))
        let clientGaps = runs[.following, default: []].reduce(0) { $0 + $1.clientGaps }
        func medianCPU(_ setup: HostSetup) -> Double { median(runs[setup, default: []].map(\.processCPUMicrosPerMessage)) }
        let clientCPU = median(runs[.following, default: []].compactMap(\.clientCPUMicrosPerMessage))
        let margin = FollowingMargin(runs: runs, messages: options.messages, budget: limits.maxQueuedBytesPerClient)

        progress("agent memory: \(options.longMessages) messages with a stalled client")
        let memory = try await bench.stalledMemory(count: options.longMessages)

        progress("latency: \(options.latencyMessages) messages at \(Int(options.latencyRate))/s")
        let latency = try await bench.latency(
            count: options.latencyMessages, rate: options.latencyRate, warmup: options.latencyWarmup)

        progress("latency reference: the same pacing over a raw Unix socket")
        let rawLatency = try await RawSocketBench.latency(
            count: options.latencyMessages, rate: options.latencyRate, warmup: options.latencyWarmup)

        let large = try await LargePayloadFigures.measure(bench, options: options)

        progress("attaching under load: a 30 MiB log, 16 KB events at 20/s")
        let attachLarge = try await bench.attachUnderLoad(
            logMessages: max(1, Int(1_900 * options.attachScale)), messageBytes: 16_000, rate: 20)
        progress("attaching under load: a full log, 256-byte events at 10,000/s")
        let attachFast = try await bench.attachUnderLoad(
            logMessages: max(1, Int(10_000 * options.attachScale)), messageBytes: 256, rate: 10_000)

        progress("TUI: \(options.tuiMessages) messages")
        let tui = try TUIBench.run(
            count: options.tuiMessages, renders: options.renders, filterRuns: options.filterRuns, keyCycles: options.keyCycles)

        progress("adapter: native agent vs GBGBridge public API, \(options.adapterMessages) messages of each kind")
        let adapter = try await AdapterFigures.measure(
            adapterBench, messages: options.adapterMessages, runs: options.adapterRuns, pollCalls: options.pollCalls)

        let loadAtEnd = loadAverage()
        let cpuShares = ticksAtStart.percentages(until: CPUTicks.now())

        // MARK: JSON

        var report = Report()
        report.set("host_msgs_per_s_no_agent", noAgent)
        report.set("host_msgs_per_s_following_client", following)
        report.set("host_msgs_per_s_stalled_client", stalled)
        report.set("ratio_following", ratioFollowing)
        report.set("ratio_stalled", ratioStalled)
        report.set("host_receive_cpu_us_per_msg_no_agent", receiveCPUNoAgent)
        report.set("host_receive_cpu_us_per_msg_following_client", receiveCPUFollowing)
        report.set("host_receive_cpu_us_per_msg_stalled_client", receiveCPUStalled)
        report.set("host_receive_cpu_us_per_msg_print_logging", receiveCPUPrinting)
        report.set("host_receive_cpu_us_per_msg_busy_neighbour", receiveCPUBusy)
        report.set("host_msgs_per_s_busy_neighbour", medianRate(.busyNeighbour))
        report.set("ratio_busy_neighbour", ratioBusy)
        report.set("cpu_ratio_busy_neighbour", receiveCPUNoAgent / receiveCPUBusy)
        report.set("cpu_ratio_following", receiveCPUNoAgent / receiveCPUFollowing)
        report.set("cpu_ratio_stalled", receiveCPUNoAgent / receiveCPUStalled)
        report.set("client_msgs_per_s_following", Double(options.messages) / clientSeconds)
        report.set("client_gaps_following", clientGaps)
        report.set("cpu_us_per_msg_no_agent", medianCPU(.noAgent))
        report.set("cpu_us_per_msg_following_client", medianCPU(.following))
        report.set("cpu_us_per_msg_stalled_client", medianCPU(.stalled))
        report.set("cpu_us_per_msg_print_logging", medianCPU(.printLogging))
        report.set("client_cpu_us_per_msg_following", clientCPU)
        margin.add(to: &report)
        report.set("agent_bytes_held_stalled_client", memory.heldBytes)
        report.set("agent_bytes_held_stalled_client_max", memory.maxHeldBytes)
        report.set("agent_bytes_bound", limits.heldBytesBound)
        for (key, attach) in [("large_log", attachLarge), ("fast_traffic", attachFast)] {
            report.set("attach_\(key)_first_live_event_ms", attach.firstLiveEventMs)
            report.set("attach_\(key)_bytes_to_first_live_event", attach.bytesToFirstLiveEvent)
            report.set("attach_\(key)_snapshots", attach.snapshots)
            report.set("attach_\(key)_gaps", attach.gaps)
            report.set("attach_\(key)_snapshot_decode_ms", attach.snapshotDecodeMs)
        }
        report.set("agent_heap_growth_stalled_client_bytes", memory.heapGrowthBytes)
        report.set("stalled_client_still_connected", memory.stillConnected)
        report.set("stalled_long_run_messages", memory.messages)
        report.set("latency_us_p50", latency.p50)
        report.set("latency_us_p90", latency.p90)
        report.set("latency_us_p99", latency.p99)
        report.set("latency_us_p999", latency.p999)
        report.set("latency_us_max", latency.max)
        report.set("latency_samples", latency.samples)
        report.set("latency_missing", latency.missing)
        report.set("latency_rate_msgs_per_s", latency.rate)
        report.set("raw_socket_latency_us_p50", rawLatency.p50)
        report.set("raw_socket_latency_us_p99", rawLatency.p99)
        report.set("raw_socket_latency_us_p999", rawLatency.p999)
        report.set("raw_socket_latency_us_max", rawLatency.max)
        report.set("raw_socket_msgs_per_s", raw)
        report.set("print_logging_msgs_per_s", printing)
        report.set("ratio_following_over_raw_socket", following / raw)
        report.set("ratio_following_over_print_logging", ratioFollowingOverPrint)
        large.add(to: &report)
        addTUIFigures(tui, to: &report)

        var config = Report()
        config.set("mode", options.mode.rawValue)
        config.set("messages_per_run", options.messages)
        config.set("runs_per_setup", options.runs)
        config.set("average_message_bytes", averageBytes)
        config.set("requests_per_message", 1.0 / Double(Workload.requestEvery))
        config.set("max_queued_bytes_per_client", limits.maxQueuedBytesPerClient)
        config.set("max_log_messages", limits.maxLogMessages)
        config.set("max_log_bytes", limits.maxLogBytes)
        config.set("stalled_client_seconds", limits.stalledClientSeconds)
        #if DEBUG
        config.set("build", "debug")
        #else
        config.set("build", "release")
        #endif
        report.set("config", config)

        adapter.add(to: &report)
        report.set("machine", machineReport(machine, loadAtStart: loadAtStart, loadAtEnd: loadAtEnd, cpuShares: cpuShares))

        var allRuns = Report()
        for setup in HostSetup.allCases {
            allRuns.set(setup.rawValue, runs[setup, default: []].map { Format.count($0.messagesPerSecond) }.joined(separator: " "))
        }
        allRuns.set("raw socket", rawRuns.map { Format.count($0) }.joined(separator: " "))
        report.set("runs_msgs_per_s", allRuns)

        // MARK: Table

        var table = Table()
        table.text("bridge-inspector-bench (\(options.mode.rawValue)\(options.mode == .smoke ? ": figures mean nothing" : ""))")
        table.text("machine: \(machine.summary)")
        table.text(loadLine(loadAtStart: loadAtStart, loadAtEnd: loadAtEnd, cpuShares: cpuShares))
        table.text(
            "workload: \(Format.count(Double(options.messages))) messages of ~\(Int(averageBytes)) bytes per run (1 in \(Workload.requestEvery) a request answered by a handler), \(options.runs) alternated runs per setup, median")

        table.title("Host throughput: host.receive incl. routing and responses           msgs/s")
        table.row("no agent", Format.count(noAgent))
        table.row("agent + following client", Format.count(following),
            "ratio \(Format.fixed(ratioFollowing, 2))  " + Format.verdict(ratioFollowing >= 0.9, ">= 0.9"))
        table.row("  the client held everything after", Format.fixed(clientSeconds, 2) + " s",
            "\(Format.count(Double(options.messages) / clientSeconds)) msgs/s, \(clientGaps) gaps over all runs")
        table.row("agent + stalled client", Format.count(stalled),
            "ratio \(Format.fixed(ratioStalled, 2))  " + Format.verdict(ratioStalled >= 0.9, ">= 0.9"))
        table.row("control: no agent, other core busy with arithmetic", Format.count(medianRate(.busyNeighbour)),
            "ratio \(Format.fixed(ratioBusy, 2))")
        table.text("  (ratios: median over rounds of each round's ratio; setups alternate within a round)")
        table.title("Host thread CPU inside host.receive, per message                         µs")
        table.row("no agent", Format.fixed(receiveCPUNoAgent, 1))
        table.row("agent + following client", Format.fixed(receiveCPUFollowing, 1),
            "as a speed ratio \(Format.fixed(receiveCPUNoAgent / receiveCPUFollowing, 2))")
        table.row("agent + stalled client", Format.fixed(receiveCPUStalled, 1),
            "as a speed ratio \(Format.fixed(receiveCPUNoAgent / receiveCPUStalled, 2))")
        table.row("print-logging delegate", Format.fixed(receiveCPUPrinting, 1))
        table.row("control: no agent, other core busy", Format.fixed(receiveCPUBusy, 1),
            "as a speed ratio \(Format.fixed(receiveCPUNoAgent / receiveCPUBusy, 2))")
        table.title("CPU per message (all threads of the process, while the host worked)        µs")
        table.row("no agent", Format.fixed(medianCPU(.noAgent), 1))
        table.row("agent + following client", Format.fixed(medianCPU(.following), 1),
            "of which the client thread \(Format.fixed(clientCPU, 1)) µs (until it held everything)")
        table.row("agent + stalled client", Format.fixed(medianCPU(.stalled), 1))
        table.row("print-logging delegate", Format.fixed(medianCPU(.printLogging), 1))
        margin.add(to: &table)

        table.title("References")
        table.row("raw Unix socket, same bytes, no JSON (the limit)", Format.count(raw),
            "inspector at \(Format.fixed(following / raw * 100, 1)) % of it")
        table.row("print-logging delegate (today's habit)", Format.count(printing),
            "inspector at \(Format.fixed(ratioFollowingOverPrint, 2))×")

        table.title("Agent memory, stalled client, \(Format.count(Double(memory.messages))) messages")
        table.row("agent.heldBytes at the end", Format.megabytes(memory.heldBytes),
            "max \(Format.megabytes(memory.maxHeldBytes)); bound \(Format.megabytes(limits.heldBytesBound)) "
                + (memory.maxHeldBytes <= limits.heldBytesBound ? "met" : "MISSED"))
        table.row("process heap growth over the run", Format.megabytes(memory.heapGrowthBytes),
            memory.stillConnected ? "client still connected" : "client was disconnected")

        table.title("Attaching under load: connect -> first live event after the snapshot")
        for attach in [attachLarge, attachFast] {
            table.row(
                "\(Format.count(Double(attach.logMessages))) logged × \(attach.messageBytes) B, \(Format.count(attach.rate))/s",
                Format.fixed(attach.firstLiveEventMs, 1) + " ms",
                "\(Format.megabytes(attach.bytesToFirstLiveEvent)) written, \(attach.snapshots) snapshot(s), \(attach.gaps) gap(s)  "
                    + Format.verdict(attach.snapshots == 1 && attach.gaps == 0, "1 snapshot, 0 gaps"))
            table.row("  the client decoding that snapshot (AgentFrame.decode)", Format.fixed(attach.snapshotDecodeMs, 1) + " ms")
        }

        table.title("Latency host.receive -> client decoded, \(Format.count(latency.rate)) msg/s, \(Format.count(Double(latency.samples))) samples")
        func ms(_ micros: Double) -> String { Format.fixed(micros / 1000, 3) + " ms" }
        table.row("p50", ms(latency.p50), "raw socket, same pacing: \(ms(rawLatency.p50))")
        table.row("p99", ms(latency.p99), Format.verdict(latency.p99 < 2000, "< 2 ms") + "; raw socket \(ms(rawLatency.p99))")
        table.row("p99.9", ms(latency.p999), "raw socket \(ms(rawLatency.p999))")
        table.row("max", ms(latency.max),
            "raw socket \(ms(rawLatency.max))" + (latency.missing > 0 ? "; \(latency.missing) not received" : ""))

        large.add(to: &table)

        table.title("TUI with \(Format.count(Double(tui.messages))) messages (120x40)")
        table.row("render(), cursor on the newest row", Format.fixed(tui.frameMsAtEnd, 3) + " ms", Format.verdict(tui.frameMsAtEnd < 5, "< 5 ms"))
        table.row("render(), cursor in the middle", Format.fixed(tui.frameMsMiddle, 3) + " ms")
        table.row("render(), filter type:request active", Format.fixed(tui.frameMsFiltered, 3) + " ms")
        table.row("render(), doctor view (D) open", Format.fixed(tui.frameMsDoctor, 3) + " ms", "the checklist examined again each frame")
        table.row("render(), statistics view (S) open", Format.fixed(tui.frameMsStats, 3) + " ms", "the rows that arrived counted, not the whole log")
        table.row("memory per message beyond its JSON", Format.fixed(tui.bytesPerMessageBeyondJSON, 0) + " B",
            Format.verdict(tui.bytesPerMessageBeyondJSON < 500, "< 500 B") + "; JSON \(Format.fixed(tui.jsonBytesPerMessage, 0)) B")
        for filter in tui.filterMs {
            table.row("filter \"\(filter.filter)\" (f, type, Enter)", Format.fixed(filter.ms, 1) + " ms", "\(Format.count(Double(filter.rows))) rows")
        }
        table.row("clear the filter (Esc)", Format.fixed(tui.clearFilterMs, 1) + " ms")
        let worstFilter = tui.filterMs.map(\.ms).max() ?? 0
        table.row("slowest filter", Format.fixed(worstFilter, 1) + " ms", Format.verdict(worstFilter < 1000, "well under 1 s"))
        table.row("ingest: decode each line, handle(.frame)", Format.count(tui.ingestMessagesPerSecond) + "/s",
            "\(Format.fixed(tui.ingestCPUMicrosecondsPerFrame, 2)) µs CPU a frame; a LogEntry is \(MemoryLayout<LogEntry>.stride) B inline")
        table.row("client: decode + apply traffic frames", Format.count(tui.frameDecodePerSecond) + "/s",
            "\(Format.fixed(tui.frameDecodeCPUMicrosecondsPerFrame, 2)) µs CPU a frame")
        let keys = tui.keyUnderLoad
        table.row("key + frame at \(Format.count(Double(keys.messagesPerSecond))) msgs/s, p50", Format.fixed(keys.p50Ms, 1) + " ms",
            "\(keys.framesPerCycle) frames decoded and applied, a key, a render; \(keys.cycles) cycles")
        table.row("key + frame at \(Format.count(Double(keys.messagesPerSecond))) msgs/s, p99", Format.fixed(keys.p99Ms, 1) + " ms",
            Format.verdict(keys.p99Ms < 50, "< 50 ms"))
        adapter.add(to: &table)
        return (report, table)
    }

    /// The machine and how busy it was, for the JSON object.
    /// The TUI's and the client's decoding figures.
    static func addTUIFigures(_ tui: TUIResult, to report: inout Report) {
        report.set("tui_messages", tui.messages)
        report.set("tui_frame_ms_1m", tui.frameMsAtEnd)
        report.set("tui_frame_ms_1m_middle", tui.frameMsMiddle)
        report.set("tui_frame_ms_1m_filtered", tui.frameMsFiltered)
        report.set("tui_frame_ms_1m_doctor", tui.frameMsDoctor)
        report.set("tui_frame_ms_1m_stats", tui.frameMsStats)
        report.set("tui_bytes_per_message_1m", tui.bytesPerMessageBeyondJSON)
        report.set("tui_json_bytes_per_message_1m", tui.jsonBytesPerMessage)
        report.set("tui_rss_bytes_per_message_1m", tui.rssBytesPerMessage)
        report.set("tui_filter_ms_1m", tui.filterMs.map(\.ms).max() ?? 0)
        for (index, filter) in tui.filterMs.enumerated() {
            report.set("tui_filter_ms_1m_\(TUIBench.filterExpressions[index].1)", filter.ms)
        }
        report.set("tui_filter_clear_ms_1m", tui.clearFilterMs)
        report.set("tui_ingest_msgs_per_s", tui.ingestMessagesPerSecond)
        report.set("client_frame_decode_per_s", tui.frameDecodePerSecond)
        report.set("tui_ingest_cpu_us_per_frame", tui.ingestCPUMicrosecondsPerFrame)
        report.set("client_frame_decode_cpu_us_per_frame", tui.frameDecodeCPUMicrosecondsPerFrame)
        report.set("tui_key_under_load_ms_p50", tui.keyUnderLoad.p50Ms)
        report.set("tui_key_under_load_ms_p99", tui.keyUnderLoad.p99Ms)
        report.set("tui_key_under_load_msgs_per_s", tui.keyUnderLoad.messagesPerSecond)
        report.set("tui_log_entry_stride_bytes", MemoryLayout<LogEntry>.stride)
        var filterNames = Report()
        for (expression, key) in TUIBench.filterExpressions { filterNames.set("tui_filter_ms_1m_\(key)", expression) }
        report.set("tui_filters", filterNames)
    }

    static func machineReport(_ machine: Machine, loadAtStart: Double, loadAtEnd: Double, cpuShares: (steal: Double, idle: Double)) -> Report {
        var report = Report()
        report.set("cpu", machine.cpuModel)
        report.set("cores", machine.cores)
        report.set("memory_bytes", Int(machine.memoryBytes))
        report.set("os", machine.system)
        report.set("kernel", machine.kernel)
        report.set("load_average_1m_start", loadAtStart)
        report.set("load_average_1m_end", loadAtEnd)
        report.set("cpu_steal_percent", cpuShares.steal)
        report.set("cpu_idle_percent", cpuShares.idle)
        return report
    }

    /// How busy the machine was, for the table.
    static func loadLine(loadAtStart: Double, loadAtEnd: Double, cpuShares: (steal: Double, idle: Double)) -> String {
        "load average (1 min) at start \(Format.fixed(loadAtStart, 2)), at end \(Format.fixed(loadAtEnd, 2))"
            + "; over the run the CPUs were \(Format.fixed(cpuShares.idle, 0)) % idle and \(Format.fixed(cpuShares.steal, 1)) % stolen by the hypervisor"
    }
}
