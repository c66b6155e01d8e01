/// What `bridge-inspector host` was asked to do, as plain values.
struct HostOptions: Sendable {
    /// `--profile`, or `nil` for the built-in demo profile.
    var profilePath: String?
    /// `--scenario`, or `nil` for the built-in demo scenario.
    var scenarioPath: String?
    /// `--name`, or `nil` for the profile's name.
    var name: String?
    /// `--socket`, or `nil` for the default location.
    var socketPath: String?
    /// `--journey-log`, or `nil` for none.
    var journeyLogPath: String?
    /// `--exit-when-done`.
    var exitWhenDone: Bool
    /// `--exit-on-stdin-eof`.
    var exitOnStdinEOF: Bool
    /// Start the journey only once an inspector follows the host.
    var waitForInspector = false
    /// `--serve`: the directory of a real web journey to serve to a browser, or `nil`.
    var serveDirectory: String? = nil
    /// `--port`: the port for the web journey (0 picks a free one), or `nil` for 0.
    var port: Int? = nil
    /// `--inspect-via`: how the agent sees the host.
    var inspectionPath: InspectionPath = .native
    /// `--allow-origin`: origins besides the served one whose pages may connect to the bridge.
    var allowedOrigins: [String] = []

    /// Whether a browser journey replaces the simulated one (`--serve` or `--allow-origin`).
    var servesWebJourney: Bool { serveDirectory != nil || !allowedOrigins.isEmpty }
}
