import ArgumentParser
import HostDiagnosis

/// The doctor's thresholds, as options (the defaults follow GBGBridge's documentation where it
/// gives a number; ``DoctorThresholds`` says where each comes from).
struct DoctorThresholdOptions: ParsableArguments {
    @Option(
        name: .customLong("busy-after"),
        help: ArgumentHelp("A typed slot busy for longer than this is stuck (default 10).", valueName: "seconds"))
    var busyAfter: Double?

    @Option(
        name: .customLong("silent-after"),
        help: ArgumentHelp("A journey attached this long without sending anything is silent (default 10).", valueName: "seconds"))
    var silentAfter: Double?

    @OptionGroup var journeyTimeout: JourneyTimeoutOption

    @Option(
        name: .customLong("large-payload"),
        help: ArgumentHelp("A message larger than this many KiB is a large payload (default 1024).", valueName: "KiB"))
    var largePayloadKiB: Int?

    @Option(
        name: .customLong("pending-leak"),
        help: ArgumentHelp("More pending requests than this fails as a leak (default 50, GBGBridge's leak threshold).", valueName: "count"))
    var pendingLeak: Int?

    /// The thresholds these options give, checked (a usage error names the bad one).
    func thresholds() throws -> DoctorThresholds {
        try Seconds.check(busyAfter, option: "--busy-after")
        try Seconds.check(silentAfter, option: "--silent-after")
        var thresholds = DoctorThresholds()
        if let busyAfter { thresholds.busyMs = busyAfter * 1000 }
        if let silentAfter { thresholds.silentMs = silentAfter * 1000 }
        thresholds.journeyTimeouts = try journeyTimeout.timeouts()
        if let largePayloadKiB {
            guard largePayloadKiB > 0, largePayloadKiB <= 1_048_576 else {
                throw ScriptError.usage("--large-payload takes a number of KiB from 1 to 1048576 (got \(largePayloadKiB))")
            }
            thresholds.largePayloadBytes = largePayloadKiB * 1024
        }
        if let pendingLeak {
            guard pendingLeak >= 0 else { throw ScriptError.usage("--pending-leak takes a count of 0 or more (got \(pendingLeak))") }
            thresholds.pendingLeak = pendingLeak
        }
        return thresholds
    }
}
