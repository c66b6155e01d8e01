import ArgumentParser
import InspectorClient

/// `--include-abandoned` and `--journey-timeout`: whether a command looks at requests the journey
/// has already given up on (``JourneyTimeouts``), shared by `wait-for` and `auto-respond`.
struct AbandonedOptions: ParsableArguments {
    @Flag(help: "Also take requests the journey has abandoned (pending longer than its timeout: 30 s, 5 s for capability.query).")
    var includeAbandoned = false

    @OptionGroup var journeyTimeout: JourneyTimeoutOption

    /// The timeouts to judge requests by, checked.
    func timeouts() throws -> JourneyTimeouts { try journeyTimeout.timeouts() }
}

/// `--journey-timeout SECONDS`: the journey's own request timeout when it is not the web SDK's,
/// for every command that tells an abandoned request from a waiting one (`wait-for`,
/// `auto-respond`, `doctor`).
struct JourneyTimeoutOption: ParsableArguments {
    @Option(
        name: .customLong("journey-timeout"),
        help: ArgumentHelp(
            "The journey's own request timeout, when it is not the web SDK's default (30 s; 5 s for capability.query): a request pending longer is abandoned.",
            valueName: "seconds"))
    var journeyTimeout: Double?

    /// The timeouts to judge requests by, checked (a usage error for a bad value).
    func timeouts() throws -> JourneyTimeouts {
        try Seconds.check(journeyTimeout, option: "--journey-timeout")
        return JourneyTimeouts(overrideMs: journeyTimeout.map { $0 * 1000 })
    }
}
