import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// The messages held at breakpoints now (every inspector's), oldest first, with their age,
/// when the host releases them on its own, direction, action, correlation id, breakpoint and
/// owner; below the list, the selected message in full. `H` opens it.
///
/// Enter releases the selected message as it is, `e` edits it first (``HeldEditDialog``), `a`
/// answers a held request by hand (the respond dialog), `d` drops it (asks first), `A` releases
/// every held message as it is (asks first, with the count), `b` shows the breakpoints. With several inspectors attached the first action wins: a later one's
/// refusal shows in the status line, and a message leaves the list for everyone when the host
/// says it was resolved.
public struct HeldView: OverlayView {
    /// The selected hold's id: the selection follows the message as others come and go.
    var selectedId: String?

    /// The selected held message, if any (the first when the selected one has gone).
    func selected(in context: OverlayContext) -> WireHeld? {
        context.live.held.first { $0.id == selectedId } ?? context.live.held.first
    }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let held = context.live.held
        let index = held.firstIndex { $0.id == selectedId } ?? 0
        switch key {
        case .escape, .char("q"), .char("H"): return .close
        case .char("j"), .down: selectedId = held[safe: min(index + 1, held.count - 1)]?.id
        case .char("k"), .up: selectedId = held[safe: max(0, index - 1)]?.id
        case .char("g"), .home: selectedId = held.first?.id
        case .char("G"), .end: selectedId = held.last?.id
        case .char("b"): return .switchTo(BreakpointsView())
        case .char("A"): return releaseAll(held, context: context)
        case .enter, .char("e"), .char("a"), .char("d"):
            guard let item = selected(in: context) else { return .flash("nothing is held", isError: true) }
            return action(key, on: item)
        default: break
        }
        return .none
    }

    /// What `key` does to `item`.
    private func action(_ key: Key, on item: WireHeld) -> OverlayAction {
        let what = Self.describe(item)
        switch key {
        case .enter:
            return .sendAndStay(.release(.init(id: item.id)), label: "release \(what)")
        case .char("e"):
            // Held without its data (too large): an edit would release it without that data.
            guard item.truncated != true else {
                return .flash("\(item.id) is too large to hold here in full (its data is left out), so it cannot be edited: Enter releases it as it is", isError: true)
            }
            return .push(HeldEditDialog(held: item))
        case .char("a"):
            guard item.message.type == .request, item.direction == .received else {
                return .flash("only a held request can be answered; e edits this \(item.message.type.rawValue) before it goes", isError: true)
            }
            return .push(RespondDialog(held: item))
        default:
            let fate = item.direction == .received
                ? "The host never routes it: no handler runs and the journey gets no answer."
                : "The journey never receives it."
            return .push(ConfirmDialog(question: "Drop \(what)? \(fate)", command: .drop(.init(id: item.id)), label: "drop \(what)"))
        }
    }

    /// Asks before releasing every message in `held` as it is. Any inspector may release any held
    /// message (docs/inspector-protocol.md 13.5), so all of them are released; the question says
    /// how many, and how many are held at other inspectors' breakpoints.
    private func releaseAll(_ held: [WireHeld], context: OverlayContext) -> OverlayAction {
        guard !held.isEmpty else { return .flash("nothing is held", isError: true) }
        let others = held.filter { item in
            guard let clientId = context.clientId else { return false }
            return context.live.breakpoints.first { $0.id == item.breakpoint }.map { $0.ownerClient != clientId } ?? false
        }.count
        let count = held.count == 1 ? "the 1 held message" : "all \(held.count) held messages"
        var question = "Release \(count) as \(held.count == 1 ? "it is" : "they are")? Requests go on to their handlers, responses and events to the journey."
        if others > 0 { question += " \(others) of them \(others == 1 ? "is" : "are") held at another inspector's breakpoint." }
        let batch = held.map { (command: InspectorCommand.release(.init(id: $0.id)), label: "release \(Self.describe($0))") }
        return .push(ConfirmDialog(question: question, batch: batch, label: "release all \(held.count) held"))
    }

    /// "held request camera.document.capture doc-7 (h1)".
    static func describe(_ item: WireHeld) -> String {
        "held \(item.message.type.rawValue) \(item.message.payload.action) \(item.message.correlationId) (\(item.id))"
    }

    var footerKeys: [(key: String, label: String)] {
        [("Esc", "back"), ("Enter", "release"), ("e", "edit+release"), ("a", "answer"), ("d", "drop"), ("A", "release all"), ("b", "breakpoints"),
         ("j/k", "move")]
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let held = context.live.held
        let skipped = context.live.holdSkippedCount
        let inner = DialogFrame.full(
            &buffer, area: area,
            title: "Held at breakpoints: \(held.count)" + (skipped > 0 ? " · \(skipped) let through, not held: the host held its most" : ""))
        guard !held.isEmpty else {
            let lines = [
                "Nothing is held.",
                "A breakpoint (b, then n) holds the messages its filter matches, before the host routes or delivers them.",
                "They appear here with their age; Enter releases, e edits, a answers a request, d drops, A releases them all.",
            ]
            DialogFrame.emptyListNote(lines, into: &buffer, rect: inner)
            return
        }
        let selected = selected(in: context)
        let hostNow = context.pendingClock
        let header = TextWidth.pad("hold", to: 6) + TextWidth.pad("age", to: 8) + TextWidth.pad("releases", to: 10) + TextWidth.pad("dir", to: 5)
            + TextWidth.pad("type action", to: 34) + TextWidth.pad("correlation id", to: 22) + TextWidth.pad("breakpoint", to: 28) + "owner"
        buffer.write(header, at: inner.origin, style: Theme.paneTitle, maxWidth: inner.width)
        let listRows = max(1, min(held.count, inner.height / 3))
        let selectedIndex = held.firstIndex { $0.id == selected?.id } ?? 0
        let first = min(max(0, selectedIndex - listRows + 1), max(0, held.count - listRows))
        for row in 0..<listRows {
            guard let item = held[safe: first + row] else { break }
            let y = inner.y + 1 + row
            let isSelected = item.id == selected?.id
            if isSelected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selection) }
            let age = TimeFormat.duration(ms: hostNow - item.since)
            let left = item.deadline.map { "in " + TimeFormat.duration(ms: $0 - hostNow) } ?? "-"
            let breakpoint = context.live.breakpoints.first { $0.id == item.breakpoint }.map { "\(item.breakpoint) \($0.filter)" } ?? item.breakpoint
            let line = TextWidth.pad(item.id, to: 6) + TextWidth.pad(age, to: 8) + TextWidth.pad(left, to: 10)
                + TextWidth.pad(item.direction == .received ? "IN" : "OUT", to: 5)
                + TextWidth.pad(TextWidth.fit("\(item.message.type.rawValue) \(item.message.payload.action)", to: 33), to: 34)
                + TextWidth.pad(CorrelationIdText.shortened(item.message.correlationId, to: 21), to: 22)
                + TextWidth.pad(TextWidth.fit(breakpoint, to: 27), to: 28) + (item.owner ?? "-")
            buffer.write(line, at: Point(x: inner.x, y: y), style: isSelected ? Theme.selection : .plain, maxWidth: inner.width)
        }
        guard let selected else { return }
        let top = inner.y + 1 + listRows
        let note = selected.truncated == true ? " (too large to hold here in full: its data is left out)" : ""
        FormDrawing.preview(
            try? BridgeMessageCodec().encode(selected.message), title: "\(selected.id): the message as held\(note)", into: &buffer, from: top,
            in: Rect(x: inner.x, y: top, width: inner.width, height: max(0, inner.maxY - top)))
    }
}
