/// The exit codes every subcommand keeps (documented in docs/cli.md).
enum ExitCodes {
    /// Done.
    static let success: Int32 = 0
    /// Something unexpected failed (a message on stderr says what).
    static let failure: Int32 = 1
    /// The host refused the command: not pending any more, slot idle, … (its message on stderr).
    static let refused: Int32 = 2
    /// No host was found, or it went away mid-command.
    static let noHost: Int32 = 3
    /// A wait (`wait-for`, `tail --until`) ended without what it waited for.
    static let timeout: Int32 = 4
    /// A recording was truncated or corrupt; what was readable was used.
    static let badRecording: Int32 = 5
    /// `doctor` found a check that fails (or warns, with `--fail-on warning`).
    static let doctorFailed: Int32 = 6
    /// `diff` found that the two sessions differ (`diff(1)`'s 1 is taken here by ``failure``, so
    /// a script can tell "different" from "broken").
    static let sessionsDiffer: Int32 = 7
    /// The command line was wrong: a bad option, malformed JSON in --data (ArgumentParser's own
    /// code); also the interactive inspector started where it cannot run (no terminal, or a
    /// terminal such as TERM=dumb that cannot move the cursor), as sysexits' EX_USAGE.
    static let usage: Int32 = 64
}
