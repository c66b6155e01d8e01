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
}
