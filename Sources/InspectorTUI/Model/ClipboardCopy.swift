import Foundation
import InspectorClient
import TerminalUI

/// What `y` and `Y` copy of a message.
public enum ClipboardFormat: Sendable, Equatable {
    /// The message's JSON exactly as it crossed the bridge (`y`); the raw text of malformed input.
    case json
    /// A line that reproduces the message in Safari Web Inspector's console (`Y`, ``SafariConsoleLine``).
    case consoleLine
}

/// Copying a message to the clipboard: the model chooses the text and says what it did; the
/// runner writes the OSC 52 sequence (``ClipboardSequence``) to the terminal when it carries
/// out ``InspectorEffect/copyToClipboard(_:)``.
///
/// The JSON is copied exactly as it crossed the bridge, compact as the bridge carries it, with
/// its own key order and number spellings: pretty-printing would mean re-encoding, and the point
/// of a copy is to reproduce or compare the very message (any editor or `jq` pretty-prints it).
extension InspectorModel {
    /// Copies the selected log row (the Messages pane's selection).
    mutating func copySelected(as format: ClipboardFormat) -> [InspectorEffect] {
        guard focus == .messages, let index = visible[safe: cursor] else {
            showFlash("nothing to copy: select a message in the Messages pane", isError: true)
            return []
        }
        return copy(logIndex: index, as: format)
    }

    /// Copies the log row at `logIndex`, or says why it cannot.
    mutating func copy(logIndex: Int, as format: ClipboardFormat) -> [InspectorEffect] {
        guard let entry = live.log[safe: logIndex], entry.kind == .message || entry.kind == .malformed else {
            showFlash("nothing to copy: select a message row", isError: true)
            return []
        }
        let text: [UInt8]
        let what: String
        switch format {
        case .json where entry.kind == .malformed:
            (text, what) = Self.pasteSafe(entry.json)
        case .json:
            text = Array(entry.json)
            what = "JSON"
        case .consoleLine:
            guard let line = SafariConsoleLine.line(for: entry) else {
                showFlash("no console line for malformed input: it is not a message (y copies its raw text)", isError: true)
                return []
            }
            text = Array(line.utf8)
            what = "a Safari console line"
        }
        guard text.count <= ClipboardSequence.maxPayloadBytes else {
            showFlash(
                "not copied: \(TimeFormat.bytes(text.count)) is more than terminals take through OSC 52 (\(TimeFormat.bytes(ClipboardSequence.maxPayloadBytes))); "
                    + "print it instead with `bridge-inspector tail --json --filter \(Self.idFilterWord(entry.correlationId))`, "
                    + "or from a recording `bridge-inspector export --har FILE`",
                isError: true)
            return []
        }
        showFlash("copied \(TimeFormat.bytes(text.count)) as \(what) to the clipboard (OSC 52)", isError: false)
        return [.copyToClipboard(text)]
    }

    /// The `--filter` word of the hint that prints a message by its correlation id: the id (a
    /// journey chooses it) escaped for the filter language and quoted for any shell, so a
    /// copied command never runs what the id holds; `id:ID` when the message has none. The
    /// flash that shows it sanitises it for the terminal.
    static func idFilterWord(_ correlationId: String) -> String {
        correlationId.isEmpty ? "id:ID" : ShellWord.quoted(LogFilter.term("id:", matching: correlationId))
    }

    /// Malformed input's raw text for the clipboard. A message's JSON can hold no control
    /// character outside whitespace, but malformed input can hold anything, and text pasted into
    /// a terminal acts there (an `ESC [201~` inside it ends a shell's bracketed paste, and what
    /// follows runs): so its lines are passed through ``Sanitizer`` (as the detail view shows
    /// them) whenever it holds anything that needs escaping; line breaks are kept.
    static func pasteSafe(_ raw: Data) -> (text: [UInt8], what: String) {
        let decoded = String(decoding: raw, as: UTF8.self)
        let lines = decoded.split(separator: "\n", omittingEmptySubsequences: false)
        guard !lines.allSatisfy(Sanitizer.isSafe) else { return (Array(raw), "the raw input") }
        let safe = lines.map { Sanitizer.sanitize(String($0)) }.joined(separator: "\n")
        return (Array(safe.utf8), "the raw input (control characters as escapes)")
    }
}
