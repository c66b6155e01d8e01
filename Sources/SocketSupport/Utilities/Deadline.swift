/// A point in time after which a blocking helper gives up, measured on the
/// monotonic clock so wall-clock changes do not matter.
struct Deadline {
    private let end: ContinuousClock.Instant?

    /// A deadline `milliseconds` from now; a negative value never expires.
    init(milliseconds: Int32) {
        end = milliseconds < 0 ? nil : ContinuousClock.now.advanced(by: .milliseconds(Int(milliseconds)))
    }

    /// The timeout to pass to `poll`: -1 without a limit, the remaining milliseconds
    /// (rounded up, at least 1) before the deadline, or nil once it has passed.
    var pollTimeout: Int32? {
        guard let end else { return -1 }
        let remaining = ContinuousClock.now.duration(to: end)
        guard remaining > .zero else { return nil }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(1, milliseconds))
    }
}
