import BridgeCore
import InspectorClient

/// How an action's latencies are kept while rows are counted: all of them in an array, summed
/// up once (``ActionStatistics/init(log:)``), or in running percentiles that stay answered as
/// rows arrive (``ActionStatisticsAccumulator``). Both give the same ``LatencySummary``.
protocol LatencyCollection: Sendable {
    /// None yet.
    init()
    /// Takes one more latency (finite).
    mutating func append(_ latency: Double)
    /// Finishes taking the latencies appended since the last call (a batch of rows counted).
    mutating func settle()
    /// The nearest-rank p50, p95 and max of every latency taken, or `nil` when there is none.
    var summary: LatencySummary? { get }
}

extension Array: LatencyCollection where Element == Double {
    mutating func settle() {}
    var summary: LatencySummary? { LatencySummary(latencies: self) }
}

/// One action's counters while the log is read.
struct ActionTally<Latencies: LatencyCollection>: Sendable {
    let action: String
    var requests = 0
    var answered = 0
    /// Answers by status, in the order of ``BridgeResponseStatus/allCases``.
    var statuses = [Int](repeating: 0, count: BridgeResponseStatus.allCases.count)
    var latencies = Latencies()
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

    /// Counts the answer in `row` (a response threaded to a request of this action).
    mutating func countAnswer(_ row: LogEntry) {
        // A response without a status is not a success: count it as an error.
        answered += 1
        statuses[Self.index(of: row.status ?? .error)] += 1
        if let latency = row.latencyMs, latency.isFinite { latencies.append(latency) }
        if let heldFor = row.heldMs, heldFor.isFinite {
            held += 1
            heldMs += heldFor
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
        stats.latency = latencies.summary
        stats.held = held
        stats.heldMs = heldMs
        return stats
    }
}

/// Every action's counters and the total, filled a range of log rows at a time: the one
/// counting rule of ``ActionStatistics``, whether the log is read whole or as it grows.
///
/// A request counts when its row is read; its answer when the response's row is read, since
/// the answer arrives later than the request (held time is summed in that order, so a
/// statistics read whole and one followed row by row add the same numbers in the same order).
struct ActionTallies<Latencies: LatencyCollection>: Sendable {
    /// One slot per action, found once per row by name; the counters are updated in place (no
    /// copy of a row per message).
    private var slotOf: [String: Int] = [:]
    private var slots: [ActionTally<Latencies>] = []
    private var total = ActionTally<Latencies>(action: "")

    private mutating func slot(_ action: String) -> Int {
        if let index = slotOf[action] { return index }
        slots.append(ActionTally(action: action))
        slotOf[action] = slots.count - 1
        return slots.count - 1
    }

    /// Counts the rows of `log` in `rows` (in order, each once).
    mutating func count(_ rows: Range<Int>, of log: [LogEntry]) {
        // Rows are read in place (`log[row].field`), never copied whole: a row holds several
        // strings and its JSON, and copying each would cost more than the counting.
        for row in rows where log[row].kind == .message {
            switch log[row].type {
            case .request where log[row].direction == .received:
                slots[slot(log[row].summary)].requests += 1
                total.requests += 1
            case .response:
                // An answer: the response threaded to a request the journey sent, which points
                // back to it (responses that answer no request in the log do not count).
                guard let request = log[row].partner, request < row, log.indices.contains(request),
                    log[request].kind == .message, log[request].type == .request, log[request].direction == .received,
                    log[request].partner == row
                else { continue }
                slots[slot(log[request].summary)].countAnswer(log[row])
                total.countAnswer(log[row])
            case .event:
                slots[slot(log[row].summary)].events += 1
                total.events += 1
            default:
                break
            }
        }
        for index in slots.indices { slots[index].latencies.settle() }
        total.latencies.settle()
    }

    /// The statistics of the rows counted so far.
    var statistics: ActionStatistics {
        ActionStatistics(actions: slots.map(\.stats), total: total.stats)
    }
}
