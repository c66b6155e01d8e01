import BridgeCore
import Foundation
import InspectorProtocol

/// What the doctor found: every check, in the order of ``DoctorCheckID/allCases``, and the host
/// it looked at.
///
/// ```swift
/// let report = Doctor().examine(state, hostNow: now)
/// print(report.status, report.failures)             // failure 2
/// let json = try report.jsonData()                  // what `doctor --json` prints
/// ```
public struct DoctorReport: Sendable, Hashable, Codable {
    /// The host examined (untrusted text in its name).
    public var host: WireHostInfo?
    /// When, in milliseconds since 1970 (the host's clock).
    public var time: Double
    /// Every check.
    public var checks: [DoctorCheck]

    /// Creates a report.
    public init(host: WireHostInfo?, time: Double, checks: [DoctorCheck]) {
        self.host = host
        self.time = time
        self.checks = checks
    }

    /// The worst status of any check (`ok` for a report with none).
    public var status: DoctorStatus { checks.map(\.status).max() ?? .ok }
    /// How many checks failed.
    public var failures: Int { checks.filter { $0.status == .failure }.count }
    /// How many checks warn.
    public var warnings: Int { checks.filter { $0.status == .warning }.count }
    /// The checks that could not run against this host.
    public var notRun: [DoctorCheck] { checks.filter { $0.status == .notRun } }

    /// The counts for a person: "2 failures, 1 warning, 11 ok", and ", 1 not run" when some
    /// checks could not run.
    public var tally: String {
        let ok = checks.filter { $0.status == .ok }.count
        var parts = [
            failures == 1 ? "1 failure" : "\(failures) failures",
            warnings == 1 ? "1 warning" : "\(warnings) warnings",
            "\(ok) ok",
        ]
        if !notRun.isEmpty { parts.append("\(notRun.count) not run") }
        return parts.joined(separator: ", ")
    }

    /// The check with `id`.
    public func check(_ id: DoctorCheckID) -> DoctorCheck? { checks.first { $0.id == id } }

    /// The order a person reads the checks in, the same in `bridge-inspector doctor` and the
    /// inspector's doctor view: failures first, then warnings, ok and not run; within a status,
    /// the order of ``DoctorCheckID/allCases``.
    public static let readingOrder: [DoctorStatus] = [.failure, .warning, .ok, .notRun]

    /// The checks in ``readingOrder``.
    public var checksInReadingOrder: [DoctorCheck] {
        Self.readingOrder.flatMap { status in checks.filter { $0.status == status } }
    }

    /// The report as JSON (sorted keys, one line): the document `bridge-inspector doctor --json`
    /// prints (``DoctorDocument``), with `status`, `failures` and `warnings` added at the top.
    public func jsonData() throws -> Data {
        try JSONEncoding.encode(DoctorDocument(report: self))
    }
}

/// The JSON document of a report: the host, the time, the overall `status` (the worst check's),
/// how many `failures` and `warnings`, and every check. Encode it with any JSON encoder (the
/// command line's escapes terminal controls in strings):
///
/// ```swift
/// let json = try JSONEncoder().encode(DoctorDocument(report: report))
/// ```
public struct DoctorDocument: Encodable, Sendable {
    /// The report.
    public let report: DoctorReport

    /// The document of `report`.
    public init(report: DoctorReport) {
        self.report = report
    }

    private enum Keys: String, CodingKey { case host, time, status, failures, warnings, checks }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(report.host, forKey: .host)
        try container.encode(report.time, forKey: .time)
        try container.encode(report.status, forKey: .status)
        try container.encode(report.failures, forKey: .failures)
        try container.encode(report.warnings, forKey: .warnings)
        try container.encode(report.checks, forKey: .checks)
    }
}
