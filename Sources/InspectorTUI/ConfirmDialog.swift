import InspectorProtocol
import TerminalUI

/// Asks before something destructive; `y` sends the command (or quits), anything else backs out.
public struct ConfirmDialog: Sendable {
    /// The question, naming exactly what will happen.
    public var question: String
    /// The command sent on yes; `nil` when yes quits the inspector.
    public var command: InspectorCommand?
    /// The action's label for the action log.
    public var label: String

    /// Asks before sending `command`.
    init(question: String, command: InspectorCommand, label: String) {
        self.question = question
        self.command = command
        self.label = label
    }

    /// Asks before quitting: `y`, or `q` again, quits.
    init(quitQuestion question: String) {
        self.question = question
        self.command = nil
        self.label = "quit"
    }

    mutating func handle(_ key: Key, model: InspectorModel) -> OverlayAction {
        switch key {
        case .char("y"), .char("Y"): return command.map { .send($0, label: label) } ?? .quit
        case .char("q") where command == nil: return .quit
        default: return .close
        }
    }

    func render(into buffer: inout Buffer, area: Rect, model: InspectorModel) {
        let width = min(70, area.width)
        let words = TextWrap.wrap(question, width: width - 4)
        let inner = DialogFrame.centered(&buffer, area: area, width: width, height: words.count + 4, title: "Confirm")
        for (row, line) in words.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + row), maxWidth: inner.width - 1)
        }
        buffer.write("y: yes   n / Esc: no", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
    }
}

/// Word wrapping in display columns.
enum TextWrap {
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if TextWidth.width(of: candidate) <= width {
                    line = candidate
                } else {
                    if !line.isEmpty { lines.append(line) }
                    line = TextWidth.width(of: String(word)) > width ? TextWidth.truncate(String(word), to: width) : String(word)
                }
            }
            lines.append(line)
        }
        return lines
    }
}
