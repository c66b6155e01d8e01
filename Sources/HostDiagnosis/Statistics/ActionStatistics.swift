import BridgeCore
import InspectorClient

/// Per-action statistics of an inspector's message log: for each action, the requests the
/// journey sent, how many the host answered and with which status, the error rate and the
/// latency percentiles (p50, p95, max; see ``LatencySummary`` for the method), and events.
///
/// Built from ``LiveState/log`` in one pass, using the threading the log already has (a request
/// row's ``LogEntry/partner`` is its response, whose ``LogEntry/latencyMs`` is the time between
/// them), then one sort of each action's latencies: cheap for a log of 100,000 rows.
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
        var rows: [String: ActionStats] = [:]
        var latencies: [String: [Double]] = [:]
        var total = ActionStats(action: "")
        var allLatencies: [Double] = []
        for entry in log where entry.kind == .message {
            switch entry.type {
            case .request where entry.direction == .received:
                let action = entry.summary
                var row = rows[action] ?? ActionStats(action: action)
                row.requests += 1
                total.requests += 1
                if let partner = entry.partner, log.indices.contains(partner) {
                    let response = log[partner]
                    if response.kind == .message, response.type == .response {
                        // A response without a status is not a success: count it as an error.
                        let status = response.status ?? .error
                        row.answered += 1
                        row.statuses[status, default: 0] += 1
                        total.answered += 1
                        total.statuses[status, default: 0] += 1
                        if let latency = response.latencyMs, latency.isFinite {
                            latencies[action, default: []].append(latency)
                            allLatencies.append(latency)
                        }
                    }
                }
                rows[action] = row
            case .event:
                rows[entry.summary, default: ActionStats(action: entry.summary)].events += 1
                total.events += 1
            default:
                break
            }
        }
        for (action, values) in latencies { rows[action]?.latency = LatencySummary(latencies: values) }
        total.latency = LatencySummary(latencies: allLatencies)
        self.total = total
        actions = rows.values.sorted { a, b in
            if a.requests != b.requests { return a.requests > b.requests }
            if a.events != b.events { return a.events > b.events }
            return a.action < b.action
        }
    }
}
