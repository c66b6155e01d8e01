/// The outcome of one doctor check, ordered from best to worst so a report's overall status is
/// the ``max()`` of its checks'.
///
/// ```swift
/// let overall = report.checks.map(\.status).max() ?? .ok
/// if overall == .failure { exit(6) }
/// ```
public enum DoctorStatus: String, Sendable, Codable, CaseIterable, Comparable {
    /// The check could not run against this host (the GBGBridge public-API adapter cannot see
    /// what it needs); ``DoctorCheck/summary`` says why. Never makes a report fail.
    case notRun = "not-run"
    /// Nothing the check looks for was seen.
    case ok
    /// Something worth a look that does not by itself break a journey.
    case warning
    /// Something that breaks a journey (or will): a CI job running the doctor fails on it.
    case failure

    /// The mark shown before a check, so the status reads without colour: `✗` failure, `!`
    /// warning, `✓` ok, `–` not run.
    public var symbol: String {
        switch self {
        case .failure: return "✗"
        case .warning: return "!"
        case .ok: return "✓"
        case .notRun: return "–"
        }
    }

    private var rank: Int {
        switch self {
        case .notRun: return 0
        case .ok: return 1
        case .warning: return 2
        case .failure: return 3
        }
    }

    public static func < (lhs: DoctorStatus, rhs: DoctorStatus) -> Bool { lhs.rank < rhs.rank }
}
