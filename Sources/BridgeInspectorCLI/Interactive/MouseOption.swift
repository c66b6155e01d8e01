import ArgumentParser

/// `--no-mouse`, for every command that opens the interactive inspector (`inspect` and the
/// bare main command, `demo`, `open`): the mouse is on by default, as in k9s, lazygit and
/// mitmproxy, and this flag leaves it to the terminal instead (its own text selection and
/// scrolling).
struct MouseOption: ParsableArguments {
    @Flag(name: .customLong("no-mouse"), help: ArgumentHelp(
        "Leave the mouse to the terminal (its own text selection). Without it a click focuses a pane and selects a row (click it again to open it), and the wheel scrolls; Shift-drag still selects text in most terminals."))
    var noMouse = false

    /// Whether the inspector reports clicks and the wheel.
    var enabled: Bool { !noMouse }
}
