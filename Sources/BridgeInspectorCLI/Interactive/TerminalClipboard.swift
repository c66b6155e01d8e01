import CursesBackend
import Foundation
import InspectorTUI
import TerminalUI
import ThreadSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Carries out ``InspectorEffect/copyToClipboard(_:)`` for the live inspector and the recording
/// viewer alike: writes the OSC 52 sequence to the terminal, wrapped for tmux's passthrough when
/// `$TMUX` says the inspector runs inside tmux.
enum TerminalClipboard {
    /// The value of a tmux option (`tmux show-options ARGUMENTS`), or `nil` when tmux cannot
    /// say (no such option in this tmux, or tmux did not answer within two seconds).
    static func tmuxOption(_ arguments: [String]) -> String? {
        // In a process group of its own, as Foundation's `Process` started it.
        guard
            let process = try? ChildProcess(
                executable: "/usr/bin/env", arguments: ["tmux", "show-options"] + arguments, standardInput: .nullDevice,
                standardOutput: .pipe, standardError: .nullDevice, newProcessGroup: true)
        else { return nil }
        guard let ending = process.waitForExit(timeout: .seconds(2)) else {
            process.signal(SIGTERM)
            // Reaped if it goes at once; a tmux deaf to SIGTERM is left, as `Process` left it.
            _ = process.waitForExit(timeout: .milliseconds(200))
            return nil
        }
        guard ending == .exited(0), let output = process.standardOutput else { return nil }
        let text = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// Whether the inspector runs inside tmux.
    static var insideTmux: Bool {
        ProcessInfo.processInfo.environment["TMUX"].map { !$0.isEmpty } ?? false
    }

    /// Writes the sequence that copies `bytes`; returns a notice for the model when the terminal
    /// did not take it, or when tmux, as it is set up now, keeps it from the terminal (asked at
    /// each copy: a person may change tmux's options while the inspector runs).
    static func copy(_ bytes: [UInt8], to screen: CursesScreen) -> InspectorInput? {
        if insideTmux,
            ClipboardSequence.tmuxDropsIt(setClipboard: tmuxOption(["-sv", "set-clipboard"]), allowPassthrough: tmuxOption(["-gwv", "allow-passthrough"]))
        {
            return .notice(
                "not copied: tmux keeps the clipboard sequence from the terminal (its set-clipboard is not on, and allow-passthrough is off); "
                    + "run `tmux set -s set-clipboard on` (or add it to ~/.tmux.conf) and copy again",
                isError: true)
        }
        guard screen.writeThrough(ClipboardSequence.osc52(bytes, insideTmux: insideTmux)) else {
            return .notice("not copied: the terminal did not take the clipboard sequence", isError: true)
        }
        return nil
    }
}
