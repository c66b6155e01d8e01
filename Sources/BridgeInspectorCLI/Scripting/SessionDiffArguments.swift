import ArgumentParser
import InspectorClient

/// How two sessions are compared, the same in `diff` and `rerun` (which compares the host's
/// answers now with the recorded ones): paths to leave out and the latency tolerance
/// (``SessionDiffOptions``).
struct SessionDiffArguments: ParsableArguments {
    @Option(name: .customLong("ignore"), help: ArgumentHelp(
        "Leave this path out of the comparison, e.g. data.sessionId, data.*.id or data.items[*] (repeatable).", valueName: "path"))
    var ignore: [String] = []

    @Flag(help: "Also compare what is ignored by default: timestamps and time-named fields in data, host event ids.")
    var noDefaultIgnores = false

    @Option(help: ArgumentHelp("Report a latency change when one side is more than this many times the other (and --latency-min-ms apart).", valueName: "x"))
    var latencyFactor: Double = 2

    @Option(name: .customLong("latency-min-ms"), help: ArgumentHelp("Report a latency change only when the two latencies are also more than this many milliseconds apart.", valueName: "ms"))
    var latencyMinMs: Double = 250

    func validate() throws {
        guard latencyFactor.isFinite, latencyFactor >= 1 else {
            throw ValidationError("--latency-factor takes a number of at least 1, such as 2 (twice as slow)")
        }
        guard latencyMinMs.isFinite, latencyMinMs >= 0 else {
            throw ValidationError("--latency-min-ms takes a number of milliseconds of at least 0, such as 250")
        }
    }

    /// The comparison's options; a path that cannot be read is a usage error (64).
    func options() throws -> SessionDiffOptions {
        var ignored: [SessionIgnorePath] = []
        for path in ignore {
            do {
                ignored.append(try SessionIgnorePath(parsing: path))
            } catch {
                throw ScriptError.usage("--ignore: \(error)")
            }
        }
        return SessionDiffOptions(
            ignoredPaths: ignored, useDefaultIgnores: !noDefaultIgnores, latency: .init(factor: latencyFactor, minimumMs: latencyMinMs))
    }
}
