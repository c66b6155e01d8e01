import BridgeCore
import Foundation
import TerminalUI

/// Shared drawing for the dialogs' labelled fields and wire-message previews.
enum FormDrawing {
    static let labelWidth = 16

    /// Draws `label: [input]` on one row; returns the row below.
    @discardableResult
    static func textField(
        _ label: String, _ input: TextInput, focused: Bool, placeholder: String = "", into buffer: inout Buffer, at y: Int, in rect: Rect
    ) -> Int {
        guard y < rect.maxY else { return y + 1 }
        buffer.write(TextWidth.pad(label, to: labelWidth), at: Point(x: rect.x, y: y), style: focused ? Theme.paneTitleFocused : Theme.paneTitle, maxWidth: labelWidth)
        let field = Rect(x: rect.x + labelWidth, y: y, width: max(1, rect.width - labelWidth), height: 1)
        _ = input.draw(into: &buffer, in: field, style: focused ? Theme.dialogFieldFocused : Theme.dialogField, focused: focused, placeholder: placeholder)
        return y + 1
    }

    /// Draws `label: [text]` on one row, a value still untouched in the "selected" colours
    /// (typing replaces it); returns the row below.
    @discardableResult
    static func textField(
        _ label: String, _ text: PrefilledText, focused: Bool, placeholder: String = "", into buffer: inout Buffer, at y: Int, in rect: Rect
    ) -> Int {
        guard focused, text.isUntouched, y < rect.maxY else {
            return textField(label, text.input, focused: focused, placeholder: placeholder, into: &buffer, at: y, in: rect)
        }
        buffer.write(TextWidth.pad(label, to: labelWidth), at: Point(x: rect.x, y: y), style: Theme.paneTitleFocused, maxWidth: labelWidth)
        let field = Rect(x: rect.x + labelWidth, y: y, width: max(1, rect.width - labelWidth), height: 1)
        _ = text.input.draw(into: &buffer, in: field, style: selectedDefault, focused: true, placeholder: placeholder)
        return y + 1
    }

    /// A focused field's value that typing replaces: drawn like selected text.
    static let selectedDefault = Style(foreground: .black, background: .cyan)

    /// Draws `label: ‹ value ›` for a choice; returns the row below.
    @discardableResult
    static func choice(_ label: String, _ value: String, focused: Bool, hint: String, into buffer: inout Buffer, at y: Int, in rect: Rect) -> Int {
        guard y < rect.maxY else { return y + 1 }
        buffer.write(TextWidth.pad(label, to: labelWidth), at: Point(x: rect.x, y: y), style: focused ? Theme.paneTitleFocused : Theme.paneTitle, maxWidth: labelWidth)
        var x = rect.x + labelWidth
        x += buffer.write("‹ \(value) ›", at: Point(x: x, y: y), style: focused ? Theme.dialogFieldFocused : Theme.dialogField, maxWidth: rect.maxX - x)
        if focused { buffer.write("  " + hint, at: Point(x: x, y: y), style: Theme.dim, maxWidth: rect.maxX - x) }
        return y + 1
    }

    /// Draws a note (a dialog's subtitle, a problem, a readiness line) word-wrapped to the
    /// dialog's width, never cut: what it says is often what a person acts on. Continuation
    /// lines are indented two columns. Returns the row below its last line.
    @discardableResult
    static func note(_ text: String, style: Style, into buffer: inout Buffer, at y: Int, in rect: Rect) -> Int {
        // Sanitised before it is measured: a host's control characters widen as visible escapes.
        let lines = DialogFrame.wrap([Span(Sanitizer.sanitize(text), style)], width: rect.width, indent: 2)
        for (row, line) in lines.enumerated() where y + row < rect.maxY {
            DialogFrame.drawLines([line], first: 0, into: &buffer, rect: Rect(x: rect.x, y: y + row, width: rect.width, height: 1))
        }
        return y + lines.count
    }

    /// Draws `✗ problem` as an error, or `✓ ready` when there is none; returns the row below.
    @discardableResult
    static func readiness(_ problem: String?, ready: String, into buffer: inout Buffer, at y: Int, in rect: Rect) -> Int {
        guard let problem else { return note("✓ " + ready, style: Theme.success, into: &buffer, at: y, in: rect) }
        return note("✗ " + problem, style: Theme.danger, into: &buffer, at: y, in: rect)
    }

    /// Draws the exact wire message that will be sent, pretty-printed, in the rows left.
    static func preview(_ json: Data?, title: String, into buffer: inout Buffer, from y: Int, in rect: Rect) {
        guard y < rect.maxY else { return }
        let line = "── \(title) " + String(repeating: "─", count: max(0, rect.width - TextWidth.width(of: title) - 4))
        buffer.write(line, at: Point(x: rect.x, y: y), style: Theme.border, maxWidth: rect.width)
        let area = Rect(x: rect.x, y: y + 1, width: rect.width, height: max(0, rect.maxY - y - 1))
        guard let json else {
            buffer.write("(fix the fields above to see the message)", at: area.origin, style: Theme.dim, maxWidth: area.width)
            return
        }
        let pretty = PrettyJSON.format(json, maxLines: max(1, area.height), maxStringLength: max(20, rect.width - 30))
        DialogFrame.drawLines(pretty.lines, first: 0, into: &buffer, rect: area)
    }
}
