import BridgeCore
import InspectorClient
import InspectorProtocol
import TerminalUI

/// `W`: the app's lifecycle, one step at a time (issue 29): the documented host events
/// (`host.background`, `host.foreground`, `host.orientation`, `host.ready` again) and what an app
/// does to its web view (detach, attach the same one again, reload the page).
///
/// Each entry has its own key; ↑ ↓ and Enter pick one too. A step is sent at once and the menu
/// closes, so the person sees its effect in the log; the web view's steps are shown greyed, with
/// the host's reason, when the host cannot do them (`HostFeature.journeyControl`).
struct LifecycleMenu: OverlayView {
    /// One line of the menu.
    struct Entry: Sendable {
        var key: Character
        var step: LifecycleStep
    }

    /// Every step, in the order shown.
    static let entries: [Entry] = [
        Entry(key: "b", step: .background),
        Entry(key: "f", step: .foreground),
        Entry(key: "p", step: .orientation("portrait")),
        Entry(key: "l", step: .orientation("landscape")),
        Entry(key: "r", step: .ready),
        Entry(key: "d", step: .journey(.detach)),
        Entry(key: "a", step: .journey(.attach)),
        Entry(key: "R", step: .journey(.reload)),
    ]

    /// The entry Enter sends.
    var selected = 0

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        switch key {
        case .escape, .char("q"): return .close
        case .up, .char("k"): selected = max(0, selected - 1)
        case .down, .char("j"): selected = min(Self.entries.count - 1, selected + 1)
        case .enter: return send(Self.entries[selected], context: context)
        case .char(let character):
            guard let entry = Self.entries.first(where: { $0.key == character }) else { return .unbound(key) }
            return send(entry, context: context)
        default: return .unbound(key)
        }
        return .none
    }

    /// The step's command, or why this host cannot do it.
    private func send(_ entry: Entry, context: OverlayContext) -> OverlayAction {
        if let feature = entry.step.command.feature, let reason = context.live.host?.unsupportedReason(feature) {
            return .flash("not available for this host: \(reason)", isError: true)
        }
        return .send(entry.step.command, label: Self.actionLabel(entry.step))
    }

    /// The action log's line for a step.
    static func actionLabel(_ step: LifecycleStep) -> String {
        switch step {
        case .journey(let journeyStep): return "lifecycle: \(journeyStep.rawValue) the web view"
        default: return "lifecycle: send \(step.label)"
        }
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let width = min(64, area.width)
        let unsupported = context.live.host?.unsupportedReason(.journeyControl)
        let note = unsupported.map { TextWrap.wrap("web view steps: not available for this host: \($0)", width: width - 4) } ?? []
        let height = Self.entries.count + 7 + note.count
        let inner = DialogFrame.centered(&buffer, area: area, width: width, height: height, title: "Lifecycle")
        buffer.write("Make the app's lifecycle happen to the journey now:", at: Point(x: inner.x + 1, y: inner.y), maxWidth: inner.width - 1)
        for (index, entry) in Self.entries.enumerated() {
            let y = inner.y + 2 + index
            let greyed = entry.step.command.feature.map { context.live.host?.unsupportedReason($0) != nil } ?? false
            var style = greyed ? Theme.dim : Style()
            if index == selected { style = Theme.selection }
            let line = " \(entry.key)  \(entry.step.label)"
            buffer.write(line.padding(toLength: max(line.count, inner.width - 2), withPad: " ", startingAt: 0),
                         at: Point(x: inner.x + 1, y: y), style: style, maxWidth: inner.width - 1)
        }
        for (row, line) in note.enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + 3 + Self.entries.count + row), style: Theme.dim, maxWidth: inner.width - 1)
        }
        buffer.write("Nothing the host holds is cleared: pending requests stay.", at: Point(x: inner.x + 1, y: inner.maxY - 2),
                     style: Theme.dim, maxWidth: inner.width - 1)
        buffer.write("key or ↑ ↓ Enter: send   Esc: back", at: Point(x: inner.x + 1, y: inner.maxY - 1), style: Theme.paneTitle, maxWidth: inner.width - 1)
    }

    var footerKeys: [(key: String, label: String)] { [("b f p l r d a R", "step"), ("Enter", "send"), ("Esc", "back")] }

    var sendingFooterKeys: Set<String> { ["b f p l r d a R", "Enter"] }
}
