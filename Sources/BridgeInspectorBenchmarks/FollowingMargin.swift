/// How close the following client came to a gap in each throughput round, and what its thread
/// and the agent's spent: the figures behind issue 30's "0 gaps in every following run".
///
/// A run says only whether a gap happened; the largest backlog the agent held for the client
/// (as the gap rule counts it) says by how much it did not, as a share of the budget
/// (`AgentLimits.maxQueuedBytesPerClient`). The client's CPU time is split into user and system
/// time with its wake-ups (voluntary context switches), which callgrind's counts do not show.
struct FollowingMargin {
    /// One round's figures for the following setup.
    struct Round {
        var gaps: Int
        var backlogBytes: Int?
        var ratioFollowing: Double?
        var ratioControl: Double?
        var client: ThreadResourceUsage?
        var agent: OtherThreadUsage?
    }

    let rounds: [Round]
    let messages: Int
    let budget: Int

    init(runs: [HostSetup: [HostRun]], messages: Int, budget: Int) {
        let following = runs[.following, default: []]
        let noAgent = runs[.noAgent, default: []]
        let control = runs[.busyNeighbour, default: []]
        rounds = following.indices.map { index in
            let run = following[index]
            let base = noAgent.indices.contains(index) ? noAgent[index].messagesPerSecond : nil
            let busy = control.indices.contains(index) ? control[index].messagesPerSecond : nil
            return Round(
                gaps: run.clientGaps, backlogBytes: run.clientBacklogMaxBytes,
                ratioFollowing: base.map { run.messagesPerSecond / $0 }, ratioControl: busy.flatMap { busy in base.map { busy / $0 } },
                client: run.clientResources, agent: run.agentThread)
        }
        self.messages = max(1, messages)
        self.budget = max(1, budget)
    }

    /// The largest backlog over the rounds, in bytes (0 when none was measured).
    var maxBacklogBytes: Int { rounds.compactMap(\.backlogBytes).max() ?? 0 }
    var maxBacklogShare: Double { Double(maxBacklogBytes) / Double(budget) }

    private func perMessage(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1000 / Double(messages) }
    private func perThousand(_ count: Int) -> Double { Double(count) * 1000 / Double(messages) }

    /// The median of `values`, or `nil` when nothing was measured (a figure left out, never a
    /// plausible 0: the agent's thread not found, `/proc` unreadable).
    private func measured(_ values: [Double]) -> Double? { values.isEmpty ? nil : median(values) }

    private var clientUser: Double? { measured(rounds.compactMap { $0.client.map { perMessage($0.userNanoseconds) } }) }
    private var clientSystem: Double? { measured(rounds.compactMap { $0.client.map { perMessage($0.systemNanoseconds) } }) }
    private var clientWakeUps: Double? { measured(rounds.compactMap { $0.client.map { perThousand($0.voluntarySwitches) } }) }
    private var clientPreempted: Double? { measured(rounds.compactMap { $0.client.map { perThousand($0.involuntarySwitches) } }) }
    private var clientFaults: Double? { measured(rounds.compactMap { $0.client.map { perThousand($0.minorPageFaults) } }) }
    private var agentCPU: Double? { measured(rounds.compactMap { $0.agent.map { perMessage($0.cpuNanoseconds) } }) }
    private var agentSystemShare: Double? { measured(rounds.compactMap { $0.agent?.systemShare }) }
    private var agentWakeUps: Double? { measured(rounds.compactMap { $0.agent.map { perThousand($0.voluntarySwitches) } }) }

    func add(to report: inout Report) {
        report.set("client_backlog_max_bytes", maxBacklogBytes)
        report.set("client_backlog_max_share", maxBacklogShare)
        for (key, value) in [
            ("client_user_us_per_msg_following", clientUser), ("client_system_us_per_msg_following", clientSystem),
            ("client_wakeups_per_1000_msgs_following", clientWakeUps), ("client_preemptions_per_1000_msgs_following", clientPreempted),
            ("client_minor_faults_per_1000_msgs_following", clientFaults), ("agent_thread_cpu_us_per_msg_following", agentCPU),
            ("agent_thread_system_share_following", agentSystemShare), ("agent_thread_wakeups_per_1000_msgs_following", agentWakeUps),
        ] {
            if let value { report.set(key, value) }
        }
        var perRound = Report()
        perRound.set("gaps", rounds.map { String($0.gaps) }.joined(separator: " "))
        perRound.set("backlog_max_bytes", rounds.map { $0.backlogBytes.map(String.init) ?? "-" }.joined(separator: " "))
        perRound.set("backlog_max_share", rounds.map { $0.backlogBytes.map { Format.fixed(Double($0) / Double(budget), 3) } ?? "-" }.joined(separator: " "))
        perRound.set("ratio_following", rounds.map { $0.ratioFollowing.map { Format.fixed($0, 3) } ?? "-" }.joined(separator: " "))
        perRound.set("ratio_busy_neighbour", rounds.map { $0.ratioControl.map { Format.fixed($0, 3) } ?? "-" }.joined(separator: " "))
        report.set("following_rounds", perRound)
    }

    func add(to table: inout Table) {
        table.title("Following client's margin to a gap (budget \(Format.megabytes(budget)) of events), per round")
        for (index, round) in rounds.enumerated() {
            let backlog = round.backlogBytes.map { "\(Format.megabytes($0)) (\(Format.fixed(Double($0) / Double(budget) * 100, 1)) %)" } ?? "-"
            table.row(
                "round \(index + 1): largest backlog", backlog,
                "\(round.gaps) gaps, ratio \(round.ratioFollowing.map { Format.fixed($0, 2) } ?? "-"), control \(round.ratioControl.map { Format.fixed($0, 2) } ?? "-")")
        }
        table.row("largest over rounds", Format.megabytes(maxBacklogBytes), "\(Format.fixed(maxBacklogShare * 100, 1)) % of the budget")
        if let clientUser, let clientSystem, let clientWakeUps, let clientPreempted, let clientFaults {
            table.row("client thread: user / system µs per message", "\(Format.fixed(clientUser, 2)) / \(Format.fixed(clientSystem, 2))",
                "\(Format.fixed(clientWakeUps, 1)) wake-ups, \(Format.fixed(clientPreempted, 1)) preemptions, \(Format.fixed(clientFaults, 1)) faults per 1,000")
        } else {
            table.row("client thread: user / system µs per message", "-", "not measured")
        }
        if let agentCPU, let agentSystemShare, let agentWakeUps {
            table.row("agent thread: CPU µs per message", Format.fixed(agentCPU, 2),
                "system \(Format.fixed(agentSystemShare * 100, 0)) % (ticks), \(Format.fixed(agentWakeUps, 1)) wake-ups per 1,000")
        } else {
            table.row("agent thread: CPU µs per message", "-", "not measured (its thread was not found in /proc)")
        }
    }
}
