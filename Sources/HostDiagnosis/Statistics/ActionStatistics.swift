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
/// Built from ``LiveState/log`` in one pass, using the threading the log already has (a request
/// row's ``LogEntry/partner`` is its response, whose ``LogEntry/latencyMs`` is the time between
/// them), then a selection of each action's percentiles: about 40 ms for a log of a million rows
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

    /// The statistics of `log`.
    public init(log: [LogEntry]) {
        // One slot per action, found once per row by name; the counters are updated in place
        // (no copy of a row per message), and percentiles are selected, not sorted.
        var slotOf: [String: Int] = [:]
        var slots: [Tally] = []
        var total = Tally(action: "")
        func slot(_ action: String) -> Int {
            if let index = slotOf[action] { return index }
            slots.append(Tally(action: action))
            slotOf[action] = slots.count - 1
            return slots.count - 1
        }
        // Rows are read in place (`log[row].field`), never copied whole: a row holds several
        // strings and its JSON, and copying each would cost more than the counting.
        for row in log.indices where log[row].kind == .message {
            switch log[row].type {
            case .request where log[row].direction == .received:
                let index = slot(log[row].summary)
                slots[index].requests += 1
                total.requests += 1
                guard let partner = log[row].partner, log.indices.contains(partner),
                    log[partner].kind == .message, log[partner].type == .response
                else { continue }
                // A response without a status is not a success: count it as an error.
                let status = Tally.index(of: log[partner].status ?? .error)
                slots[index].answered += 1
                slots[index].statuses[status] += 1
                total.answered += 1
                total.statuses[status] += 1
                if let latency = log[partner].latencyMs, latency.isFinite {
                    slots[index].latencies.append(latency)
                    total.latencies.append(latency)
                }
                if let held = log[partner].heldMs, held.isFinite {
                    slots[index].held += 1
                    slots[index].heldMs += held
                    total.held += 1
                    total.heldMs += held
                }
            case .event:
                slots[slot(log[row].summary)].events += 1
                total.events += 1
            default:
                break
            }
        }
        self.total = total.stats
        actions = slots.map(\.stats).sorted { a, b in
            if a.requests != b.requests { return a.requests > b.requests }
            if a.events != b.events { return a.events > b.events }
            return a.action < b.action
        }
    }
}

/// One action's counters while the log is read.
private struct Tally {
    let action: String
    var requests = 0
    var answered = 0
    /// Answers by status, in the order of ``BridgeResponseStatus/allCases``.
    var statuses = [Int](repeating: 0, count: BridgeResponseStatus.allCases.count)
    var latencies: [Double] = []
    var held = 0
    var heldMs = 0.0
    var events = 0

    init(action: String) {
        self.action = action
    }

    /// Where `status` counts in ``statuses``.
    static func index(of status: BridgeResponseStatus) -> Int {
        switch status {
        case .success: return 0
        case .error: return 1
        case .cancelled: return 2
        case .unsupported: return 3
        }
    }

    var stats: ActionStats {
        var stats = ActionStats(action: action)
        stats.requests = requests
        stats.answered = answered
        stats.events = events
        for status in BridgeResponseStatus.allCases where statuses[Self.index(of: status)] > 0 {
            stats.statuses[status] = statuses[Self.index(of: status)]
        }
        stats.latency = LatencySummary(latencies: latencies)
        stats.held = held
        stats.heldMs = heldMs
        return stats
    }
}
