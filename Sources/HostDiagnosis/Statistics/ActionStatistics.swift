import BridgeCore
import InspectorClient

/// Per-action statistics of an inspector's message log: for each action, the requests the
/// journey sent, how many the host answered and with which status, the error rate and the
/// latency percentiles (p50, p95, max; see ``LatencySummary`` for the method), and events.
///
/// Latency is the host's answer time: a request held at a breakpoint for 40 s and then answered
/// at once counts a few milliseconds, not 40 s. The time held is counted apart
/// (``ActionStats/held``, ``ActionStats/heldMs``), as it is the inspector's doing.
///
/// Built from ``LiveState/log`` in one pass, using the threading the log already has (a
/// response row's ``LogEntry/partner`` is its request, and its ``LogEntry/latencyMs`` the time
/// between them), then a selection of each action's percentiles: about 40 ms for a log of a
/// million rows. The statistics view follows the log with an ``ActionStatisticsAccumulator``,
/// which gives the same statistics counting only what arrived since it last looked
/// (`tui_frame_ms_1m_stats` in docs/performance.md).
///
/// Only messages count: malformed input, gap/disconnect/restart markers, responses that answer
/// no request in the log, and requests the host sent are left out.
///
/// ```swift
/// let stats = ActionStatistics(log: state.log)
/// stats.actions.first?.errorRate
/// ```
public struct ActionStatistics: Sendable, Equatable {
    /// One row per action, the most requested first (then the most events, then by name).
    public var actions: [ActionStats]
    /// Every action together, under the action name `""`: all requests, answers and events, and
    /// the latency percentiles of every answered request.
    public var total: ActionStats

    /// The statistics of `log`, counted whole. A view that shows them live follows the log
    /// with an ``ActionStatisticsAccumulator`` instead, which counts only the rows that arrived.
    public init(log: [LogEntry]) {
        var tallies = ActionTallies<[Double]>()
        tallies.count(log.indices, of: log)
        self = tallies.statistics
    }

    /// Statistics of these rows, put in their order: the most requested first, then the most
    /// events, then by name.
    init(actions: [ActionStats], total: ActionStats) {
        self.total = total
        self.actions = actions.sorted { a, b in
            if a.requests != b.requests { return a.requests > b.requests }
            if a.events != b.events { return a.events > b.events }
            return a.action < b.action
        }
    }
}
