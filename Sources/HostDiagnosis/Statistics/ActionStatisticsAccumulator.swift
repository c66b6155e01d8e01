import InspectorClient

/// ``ActionStatistics`` that follow a growing log: each ``follow(_:)`` counts only the rows
/// that arrived since the last one, so a view can show the statistics of a million-message log
/// live at the cost of the new rows (the statistics view, `S`; `tui_frame_ms_1m_stats` in
/// docs/performance.md). The result is always equal to `ActionStatistics(log: state.log)`.
///
/// What arrives after a row was counted is followed: a response threads to an earlier request,
/// so the answer, its status and latency count when the response's row is read; latency
/// percentiles are kept running (``LatencySummary`` by heaps, not by a selection each time).
/// The log is counted again from the start, instead, when it cannot be followed:
/// - it is shorter than the rows already counted (a state replaced by another);
/// - the last row counted is not the row now at its place (the state was replaced by one
///   with a different history);
/// - a row already counted was changed in place (``LiveState/rowsEditedInPlace``: a message
///   released edited after it was logged, whose status may differ).
///
/// ```swift
/// var accumulator = ActionStatisticsAccumulator()
/// accumulator.follow(state)          // after each frame applied
/// accumulator.statistics.total.requests
/// ```
public struct ActionStatisticsAccumulator: Sendable {
    private var tallies = ActionTallies<RunningLatencies>()
    /// The statistics of the rows counted, as of the last ``follow(_:)``.
    public private(set) var statistics = ActionStatistics(log: [])
    /// How many rows of the log have been counted.
    public private(set) var countedRows = 0
    /// How many times the log was counted again from the start because it could not be
    /// followed (the first count is not one).
    public private(set) var recounts = 0
    /// ``LiveState/rowsEditedInPlace`` when last followed.
    private var editsSeen = 0
    /// The last row counted, to tell that the log is still the one followed.
    private var lastCounted: RowIdentity?

    /// Nothing counted yet.
    public init() {}

    /// Statistics that have counted `state`'s log.
    public init(following state: LiveState) {
        follow(state)
    }

    /// Counts what arrived in `state`'s log since the last call (or all of it, when it cannot be
    /// followed); returns whether the statistics may have changed.
    @discardableResult
    public mutating func follow(_ state: LiveState) -> Bool {
        let log = state.log
        let followable = countedRows == 0
            || (countedRows <= log.count && state.rowsEditedInPlace == editsSeen && lastCounted == RowIdentity(log[countedRows - 1]))
        if !followable {
            tallies = ActionTallies()
            countedRows = 0
            recounts += 1
        }
        editsSeen = state.rowsEditedInPlace
        guard countedRows < log.count else {
            if !followable { statistics = tallies.statistics }
            return !followable
        }
        tallies.count(countedRows..<log.count, of: log)
        countedRows = log.count
        lastCounted = RowIdentity(log[log.count - 1])
        statistics = tallies.statistics
        return true
    }
}

/// What tells one log row from another row at the same place in a different log.
private struct RowIdentity: Equatable, Sendable {
    var kind: LogEntry.Kind
    var seq: Int
    /// The time's bits: a NaN time is still the same row.
    var time: UInt64
    var correlationId: String
    var bytes: Int

    init(_ row: LogEntry) {
        kind = row.kind
        seq = row.seq
        time = row.time.bitPattern
        correlationId = row.correlationId
        bytes = row.bytes
    }
}
