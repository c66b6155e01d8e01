import CursesBackend
import Foundation
import InspectorTUI
import TerminalUI

/// Carries out ``InspectorEffect/copyToClipboard(_:)`` for the live inspector and the recording
/// viewer alike: writes the OSC 52 sequence to the terminal, wrapped for tmux's passthrough when
/// `$TMUX` says the inspector runs inside tmux.
enum TerminalClipboard {
    /// Whether the inspector runs inside tmux.
    static var insideTmux: Bool {
        ProcessInfo.processInfo.environment["TMUX"].map { !$0.isEmpty } ?? false
    }

    /// Writes the sequence that copies `bytes`; returns a notice for the model when the terminal
    /// did not take it.
    static func copy(_ bytes: [UInt8], to screen: CursesScreen) -> InspectorInput? {
        guard screen.writeThrough(ClipboardSequence.osc52(bytes, insideTmux: insideTmux)) else {
            return .notice("not copied: the terminal did not take the clipboard sequence", isError: true)
        }
        return nil
    }
}
