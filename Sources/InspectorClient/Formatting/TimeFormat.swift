import Foundation

/// Formats times and durations for the screen, quickly and with an injectable time zone.
public struct TimeFormat: Sendable {
    /// Seconds east of UTC used for wall-clock times.
    public var utcOffsetSeconds: Int

    /// Uses the current time zone by default.
    public init(utcOffsetSeconds: Int = TimeZone.current.secondsFromGMT()) {
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The furthest a time may be from 1970, in milliseconds, to be shown as a clock: the range
    /// of a JavaScript `Date` (±8.64e15 ms, about 273,790 years either side of 1970).
    ///
    /// Times come from an agent's frames or a recording file, so they can be anything a JSON
    /// number can be (`1e300`, `-1e300`); beyond this range ``clock(_:)`` shows
    /// ``unknownClock`` and ``duration(ms:)`` shows `?` instead of converting to an integer,
    /// which would trap.
    public static let maxMilliseconds = 8.64e15

    /// What ``clock(_:)`` shows for a time that is not a number or out of range: as wide as a
    /// real clock, so the columns after it stay in place.
    public static let unknownClock = "--:--:--.---"

    /// `HH:mm:ss.SSS` for a time in milliseconds since 1970; ``unknownClock`` for NaN, an
    /// infinity, or a time beyond ±``maxMilliseconds``.
    public func clock(_ ms: Double) -> String {
        guard ms.isFinite, abs(ms) <= Self.maxMilliseconds else { return Self.unknownClock }
        // Both terms are far from Int64's limits: |ms| <= 8.64e15 and the offset is under a day.
        let local = Int64(ms.rounded()) + Int64(utcOffsetSeconds % 86_400) * 1000
        let dayMs = ((local % 86_400_000) + 86_400_000) % 86_400_000
        let hours = dayMs / 3_600_000
        let minutes = dayMs / 60_000 % 60
        let seconds = dayMs / 1000 % 60
        let millis = dayMs % 1000
        return pad2(hours) + ":" + pad2(minutes) + ":" + pad2(seconds) + "." + pad3(millis)
    }

    /// A short duration: `850ms`, `12.3s`, `4m05s`, `2h03m`. A negative duration is `0ms`
    /// (clocks disagree); NaN, and anything longer than twice ``maxMilliseconds`` (the span
    /// between two times ``clock(_:)`` can show), is `?`.
    public static func duration(ms: Double) -> String {
        guard !ms.isNaN else { return "?" }
        let ms = max(0, ms)
        guard ms <= 2 * maxMilliseconds else { return "?" }
        if ms < 1000 { return "\(Int(ms))ms" }
        if ms < 60_000 { return String(format: "%.1fs", ms / 1000) }
        let seconds = Int(ms / 1000)
        if seconds < 3600 { return "\(seconds / 60)m" + String(format: "%02d", seconds % 60) + "s" }
        return "\(seconds / 3600)h" + String(format: "%02d", seconds / 60 % 60) + "m"
    }

    /// A byte count: `512 B`, `3.4 KB`, `9.8 MB`.
    public static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
    }

    private func pad2(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private func pad3(_ value: Int64) -> String { value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)" }
}
