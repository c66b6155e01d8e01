import BridgeCore

/// The JSON of `bridge-inspector stats --json` (docs/cli.md): every field is always present,
/// `null` where there is no value; times are milliseconds.
///
/// ```json
/// {"actions": [ROW, ...], "total": ROW}
/// ```
///
/// A ROW: `action` (the total has none), `requests`, `answered`, `unanswered`, `statuses`
/// (`success`, `error`, `cancelled`, `unsupported`: answers by status), `errorRate` (answers
/// not `success` ÷ `answered`, 0 to 1, `null` when none answered), `latencyMs` (`p50`, `p95`,
/// `max`: nearest-rank percentiles of the host's answer time, without any time held at a
/// breakpoint; `null` when none answered), `held` (answered requests held at a breakpoint on the
/// way), `heldMs` (how long they were held, all together) and `events`.
extension ActionStatistics: Encodable {
    private enum Keys: String, CodingKey { case actions, total }

    /// Encodes as documented on the extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(actions.map { EncodedRow(row: $0, named: true) }, forKey: .actions)
        try container.encode(EncodedRow(row: total, named: false), forKey: .total)
    }
}

/// One ROW of the JSON: an action's, or (without `action`) the total's.
private struct EncodedRow: Encodable {
    var row: ActionStats
    var named: Bool

    private enum Keys: String, CodingKey {
        case action, requests, answered, unanswered, statuses, errorRate, latencyMs, held, heldMs, events
    }

    func encode(to encoder: any Encoder) throws {
        let row = self.row
        var container = encoder.container(keyedBy: Keys.self)
        if named { try container.encode(row.action, forKey: .action) }
        try container.encode(row.requests, forKey: .requests)
        try container.encode(row.answered, forKey: .answered)
        try container.encode(row.unanswered, forKey: .unanswered)
        let statuses = Dictionary(uniqueKeysWithValues: BridgeResponseStatus.allCases.map { ($0.rawValue, row.count($0)) })
        try container.encode(statuses, forKey: .statuses)
        if let errorRate = row.errorRate { try container.encode(errorRate, forKey: .errorRate) } else { try container.encodeNil(forKey: .errorRate) }
        if let latency = row.latency {
            try container.encode(["p50": latency.p50, "p95": latency.p95, "max": latency.max], forKey: .latencyMs)
        } else {
            try container.encodeNil(forKey: .latencyMs)
        }
        try container.encode(row.held, forKey: .held)
        try container.encode(row.heldMs, forKey: .heldMs)
        try container.encode(row.events, forKey: .events)
    }
}
