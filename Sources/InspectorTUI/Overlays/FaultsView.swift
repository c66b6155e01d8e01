import InspectorClient
import InspectorProtocol
import TerminalUI

/// Every inspector's fault rules (``LiveState/faults``), beside the reply rules: `R`, then Tab.
/// Each row has the rule's id (the one its marks in the log carry), filter, what it does and when,
/// its hits and who set it, yours marked as the breakpoints view marks them (another's dimmed). `n` adds one
/// (``FaultDialog``), `d` removes yours (another inspector's goes when it does), `o` loads a
/// rules file (``FaultFileDialog``), `s` saves every rule listed to one (``SaveDialog``, to share
/// or to paste into a fault scenario), Tab goes back to the reply rules.
public struct FaultsView: OverlayView {
    var cursor = 0

    /// Why this inspector cannot set fault rules here, as a notice says it, or `nil` when it can.
    static func refusal(_ context: OverlayContext, what: String) -> String? {
        if context.readOnly { return "\(context.readOnlyWhy): \(what)" }
        if let reason = context.live.host?.unsupportedReason(.faults) { return "not available for this host: \(reason)" }
        return nil
    }

    /// What `s` saves, in a few words: "3 fault rules (2 yours)".
    static func saveSummary(_ faults: [WireFault], clientId: Int?) -> String {
        let own = clientId.map { id in faults.filter { $0.ownerClient == id }.count } ?? 0
        return "\(faults.count) fault rule\(faults.count == 1 ? "" : "s")" + (own > 0 && own < faults.count ? " (\(own) yours)" : "")
    }

    var footerKeys: [(key: String, label: String)] {
        [("Esc", "back"), ("n", "new fault"), ("d", "remove yours"), ("o", "load file"), ("s", "save"), ("Tab", "reply rules"), ("j/k", "move")]
    }

    var sendingFooterKeys: Set<String> { ["n", "d", "o"] }

    mutating func handle(_ key: Key, context: OverlayContext) -> OverlayAction {
        let list = context.live.faults
        switch key {
        case .escape, .char("q"), .char("R"): return .close
        case .tab, .backTab: return .switchTo(RulesView())
        case .char("j"), .down: cursor = min(cursor + 1, max(0, list.count - 1))
        case .char("k"), .up: cursor = max(0, cursor - 1)
        case .char("n"):
            if let refusal = Self.refusal(context, what: "no fault rule can be set from here") { return .flash(refusal, isError: true) }
            return .push(FaultDialog())
        case .char("o"):
            if let refusal = Self.refusal(context, what: "no fault rule can be set from here") { return .flash(refusal, isError: true) }
            return .push(FaultFileDialog())
        case .char("s"):
            // Saving sends nothing: it works in a recording too (the rules set when it was made).
            guard !list.isEmpty else { return .flash("no fault rules to save: n adds one", isError: true) }
            return .push(SaveDialog(path: "faults.json", summary: Self.saveSummary(list, clientId: context.readOnly ? nil : context.clientId), kind: .faultRules))
        case .char("d"), .delete:
            guard let fault = list[safe: min(cursor, list.count - 1)] else { return .flash("no fault rule to remove", isError: true) }
            if let refusal = fault.removalRefusal(in: context) { return refusal }
            return .sendAndStay(.removeFault(.init(id: fault.id)), label: "remove fault \(fault.id) \(fault.rule.filter)")
        default: return .unbound(key)
        }
        return .none
    }

    func render(into buffer: inout Buffer, area: Rect, context: OverlayContext) {
        let list = context.live.faults
        let hits = list.reduce(0) { $0 + $1.hits }
        let inner = DialogFrame.full(&buffer, area: area, title: "Fault rules: \(list.count) (\(hits) \(hits == 1 ? "hit" : "hits"))  ·  Tab: reply rules")
        if list.isEmpty {
            var lines = [
                "No fault rules.",
                "A fault rule makes the host's real handling go wrong on purpose: answer BUSY, answer late, never answer, drop,",
                "duplicate or reorder what matches a filter, always, N times, with a seeded probability, or in a sequence.",
                "Press n to add one, o to load a rules file; each faulted row in the log shows ⚡ and the rule (f is:fault lists them).",
                "Rules belong to the inspector that set them and go when it disconnects.",
            ]
            if let refusal = Self.refusal(context, what: "fault rules can only be listed here") { lines.append(refusal) }
            DialogFrame.emptyListNote(lines, into: &buffer, rect: inner)
            return
        }
        // The filter and what the rule does share the width left by the id, the hits and at
        // least 24 columns for who set it, so "set by" stays on an 80-column screen.
        let column = max(12, min(40, (inner.width - 12 - 24) / 2))
        let header = TextWidth.pad("id", to: 6) + TextWidth.pad("filter", to: column) + TextWidth.pad("does", to: column) + TextWidth.pad("hits", to: 6) + "set by"
        buffer.write(header, at: inner.origin, style: Theme.paneTitle, maxWidth: inner.width)
        let selectedIndex = min(cursor, list.count - 1)
        for (index, fault) in list.enumerated() where index + 1 < inner.height {
            let y = inner.y + 1 + index
            let selected = index == selectedIndex
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selection) }
            // Another inspector's filter and name come from a socket: `write` sanitizes them, and
            // `fit` cuts what it measures the same way.
            let line = TextWidth.pad(TextWidth.fit(Sanitizer.sanitize(fault.id), to: 5), to: 6)
                + TextWidth.pad(TextWidth.fit(Sanitizer.sanitize(fault.rule.filter), to: column - 1), to: column)
                + TextWidth.pad(TextWidth.fit(Sanitizer.sanitize(fault.rule.summary), to: column - 1), to: column)
                + TextWidth.pad("\(fault.hits)", to: 6) + fault.ownerColumn(in: context)
            let own = fault.isOwn(in: context) != false
            buffer.write(line, at: Point(x: inner.x, y: y), style: selected ? Theme.selection : (own ? .plain : Theme.dim), maxWidth: inner.width)
        }
    }
}
