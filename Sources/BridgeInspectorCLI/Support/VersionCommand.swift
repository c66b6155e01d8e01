import ArgumentParser
import InspectorProtocol

/// `bridge-inspector version` (and `bridge-inspector --version`): which bridge-inspector this is
/// and which inspector protocol it speaks, so a person can tell whether an inspector and an
/// app's embedded agent can talk before attaching (the agent states its protocol version in
/// its `hello`; a mismatch ends the connection).
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print bridge-inspector's version and the inspector protocol version it speaks.")

    /// The line printed: `bridge-inspector 0.1.0 (inspector protocol 1)`.
    static var line: String {
        "bridge-inspector \(WireProtocol.toolVersion) (inspector protocol \(WireProtocol.version))"
    }

    func run() {
        print(Self.line)
    }
}
