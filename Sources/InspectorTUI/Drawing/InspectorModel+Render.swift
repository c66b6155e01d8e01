import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

extension InspectorModel {
    /// Draws the whole screen into a buffer of the current size.
    public func render() -> Buffer {
        var buffer = Buffer(size: size)
        let layout = layout
        if layout.isTooSmall {
            renderTooSmall(into: &buffer)
            return buffer
        }
        renderStatus(into: &buffer, area: layout.status)
        renderErrorBanner(into: &buffer, area: layout.errorBanner)
        renderMessages(into: &buffer, area: layout.messages)
        renderPending(into: &buffer, area: layout.pending)
        renderSlots(into: &buffer, area: layout.slots)
        let body = Rect(x: 0, y: layout.status.maxY, width: size.width, height: layout.footer.y - layout.status.maxY)
        let context = overlayContext
        for overlay in overlays { overlay.render(into: &buffer, area: body, context: context) }
        renderFooter(into: &buffer, area: layout.footer)
        return buffer
    }

    private func renderTooSmall(into buffer: inout Buffer) {
        let minimum = MainLayout.minimumSize
        let lines = [
            "Terminal too small",
            "\(size.width)x\(size.height); needs \(minimum.width)x\(minimum.height)",
            "Enlarge the window, or press q to quit",
        ]
        // Wrapped to the width, so even a 10-column terminal reads "Terminal too small".
        var rows: [(text: String, style: Style)] = []
        for (offset, line) in lines.enumerated() {
            for part in TextWrap.wrap(line, width: max(1, size.width)) { rows.append((part, offset == 0 ? Theme.warning : .plain)) }
        }
        let top = max(0, (size.height - rows.count) / 2)
        for (index, row) in rows.enumerated() {
            let x = max(0, (size.width - TextWidth.width(of: row.text)) / 2)
            buffer.write(row.text, at: Point(x: x, y: top + index), style: row.style, maxWidth: size.width)
        }
    }

    // MARK: Status line

    /// "waiting for a host named my-app… (q quits)": shown until a followed host first runs.
    var waitingText: String {
        "waiting for a host named \(followedHost ?? "")… (q quits)"
    }

    private func renderStatus(into buffer: inout Buffer, area: Rect) {
        let disconnected = live.isDisconnected
        let style = disconnected ? Theme.statusBarDisconnected : Theme.statusBar
        buffer.fill(area, style: style)
        var parts: [String] = [" bridge-inspector"]
        if let host = live.host {
            parts.append("\(host.name) (pid \(host.pid)) v\(host.hostVersion) \(host.environment)")
            // An app embedding GBG's GBGBridge is seen through its public API: say so, since some
            // keys then explain what the API cannot do instead of acting.
            if host.inspectionPath == HostFeature.publicAPIPath { parts.append("via GBGBridge public API") }
        } else if !socketPath.isEmpty {
            parts.append(socketPath)
        }
        switch live.connection {
        case .connecting where followedHost != nil && live.host == nil:
            parts.append("○ \(waitingText)")
        case .connecting: parts.append("○ connecting")
        case .connected:
            parts.append(!readOnly ? "● connected" : recordingEnd != nil ? "▣ recording (read-only)" : "● connected · read-only")
            // Sends fail with "WebView not attached" until a journey attaches: say so up front.
            if !live.journeyAttached, live.host != nil { parts.append("no journey attached") }
        case .disconnected(let since):
            let next = followedHost.map { "waiting for \($0) to run again…" } ?? "reattaching…"
            parts.append("✗ DISCONNECTED \(TimeFormat.duration(ms: now - since)) ago, \(next)")
        }
        // Reports of what the host sent that the inspector could not read (a page script's):
        // shown so that a log without responses is not taken for a host that sends none.
        if let unread = live.counts.unreadSentReports, unread > 0 { parts.append("⚠ \(unread) unread from page") }
        // Held messages wait on a person: counted whatever view is open (H lists them).
        if !live.held.isEmpty { parts.append("⏸ \(live.held.count) held (H)") }
        // Fault rules make the host misbehave on purpose: while any is set (anyone's), say so,
        // with how many messages they have changed (the rules' hits, cheap to sum every frame).
        if !live.faults.isEmpty {
            let hits = live.faults.reduce(0) { $0 + $1.hits }
            parts.append("⚡ \(live.faults.count) fault rule\(live.faults.count == 1 ? "" : "s"), \(hits) faulted (X)")
        }
        // What changes what you see comes before the rate, so it survives a narrow terminal.
        if pausedAt != nil { parts.append("⏸ PAUSED") }
        if !filter.isEmpty { parts.append("filter: \(filter.source)") }
        if let search { parts.append("search: \(search.source)") }
        // A file has no live rate: a recording says what it holds and when it ends instead,
        // shortened to its end alone where the line is narrow.
        let rates = recordingEnd == nil ? [String(format: "%.1f msg/s", messageRate)] : [recordingSummary, recordingEndText]
        // Rows the protocol linter marked: counted, with the filter that lists them while there
        // is room. The count gives way before anything else does (after the program's name), so
        // a narrow terminal keeps the connection, holds, pause and filter.
        let lintCount = live.lintCount
        let lint = lintCount > 0 ? ["⚑ \(lintCount) lint (f is:lint)", "⚑ \(lintCount) lint"] : []
        let candidates = rates.flatMap { rate in
            [lint.first, lint.first, lint.last, nil].enumerated().map { step, item -> String in
                let shown = (step == 0 ? parts : Array(parts.dropFirst())) + (item.map { [$0] } ?? []) + [rate]
                return (step == 0 ? "" : " ") + shown.joined(separator: " │ ")
            }
        }
        let line = candidates.first { TextWidth.width(of: $0) <= area.width } ?? candidates[candidates.count - 1]
        buffer.write(line, at: area.origin, style: style, maxWidth: area.width)
    }

    // MARK: lastError

    private func renderErrorBanner(into buffer: inout Buffer, area: Rect) {
        let count = live.errorCount
        guard let error = live.lastError, let text = error.text else {
            buffer.fill(area)
            let history = count > 0 ? " (\(count) earlier, E for history)" : ""
            buffer.write(" lastError: none\(history)", at: area.origin, style: Theme.noErrorBanner, maxWidth: area.width)
            return
        }
        buffer.fill(area, style: Theme.errorBanner)
        let jump = error.cause != nil ? " J:jump" : ""
        // A recording cannot clear anything: C is not offered there.
        let keys = " [E:history\(jump)\(readOnly ? "" : " C:clear")]"
        // An error an inspector caused is shown as the inspector's: the doctor does not count it.
        let mark = live.isInspectorMade(error) ? "✎ inspector's: " : ""
        let prefix = " ⚠ lastError (\(count)) \(timeFormat.clock(error.time)) " + mark
        let available = max(0, area.width - TextWidth.width(of: prefix) - TextWidth.width(of: keys))
        let line = prefix + TextWidth.fit(text, to: available) + keys
        buffer.write(line, at: area.origin, style: Theme.errorBanner, maxWidth: area.width)
    }

    // MARK: Messages

    private func paneBox(_ buffer: inout Buffer, _ area: Rect, _ title: String, _ pane: Pane) -> Rect {
        let focused = focus == pane && overlays.isEmpty
        let zoom = zoomed && focus == pane ? "  · zoomed (z: all panes)" : ""
        return buffer.box(
            area, style: focused ? Theme.borderFocused : Theme.border, title: (focused ? "▶ " : "") + title + zoom,
            titleStyle: focused ? Theme.paneTitleFocused : Theme.paneTitle)
    }

    private func renderMessages(into buffer: inout Buffer, area: Rect) {
        var title = "Messages \(visible.count)"
        if visible.count != live.log.count { title += "/\(live.log.count)" }
        if let pausedAt, live.log.count > pausedAt { title += " (+\(live.log.count - pausedAt) new)" }
        title += pausedAt != nil ? " · PAUSED" : following ? " · follow" : " · reading"
        let inner = paneBox(&buffer, area, title, .messages)
        guard !inner.isEmpty else { return }
        if visible.isEmpty {
            let hint = live.log.isEmpty
                ? (followedHost != nil && live.host == nil ? waitingText : "waiting for traffic…")
                : "no message matches the filter (Esc clears it)"
            buffer.write(hint, at: inner.origin, style: Theme.dim, maxWidth: inner.width)
            return
        }
        let pending = search == nil ? Set<String>() : pendingIds
        for row in 0..<inner.height {
            let index = scroll + row
            guard index < visible.count else { break }
            let entry = live.log[visible[index]]
            let y = inner.y + row
            let selected = index == cursor
            // Markers always pass a filter, but they are never search matches.
            let matched = (entry.kind == .message || entry.kind == .malformed) && (search?.matches(entry, pending: pending) ?? false)
            MessageRow.draw(
                entry, into: &buffer, at: Point(x: inner.x, y: y), width: inner.width, selected: selected,
                highlighted: matched, timeFormat: timeFormat, hold: live.holdMarks[visible[index]])
        }
    }

    // MARK: Pending

    private func renderPending(into buffer: inout Buffer, area: Rect) {
        // A host that leaks requests can have more pending than the agent keeps records of.
        let omitted = live.counts.pendingOmitted.map { " (+\($0) not listed)" } ?? ""
        // While the host is gone its requests cannot be answered: say so, dim them, stop their clocks.
        let gone = live.isDisconnected
        let inner = paneBox(&buffer, area, "Pending \(live.pending.count)\(omitted)\(gone ? " · host gone" : "")", .pending)
        guard !inner.isEmpty else { return }
        if live.pending.isEmpty {
            buffer.write("no request is waiting", at: inner.origin, style: Theme.dim, maxWidth: inner.width)
            return
        }
        let rows = inner.height
        let first = firstPendingShown(rows: rows)
        for row in 0..<rows {
            let index = first + row
            guard index < live.pending.count else { break }
            let request = live.pending[index]
            // Ages and marks on the host's clock, as `since` is: one notion of "abandoned"
            // (JourneyTimeouts), the same the reply rules and `wait-for` use.
            let age = max(0, pendingClock - request.since)
            let timeout = journeyTimeouts.timeoutMs(forAction: request.action)
            let ageStyle: Style
            let mark: String
            if gone {
                ageStyle = Theme.dim
                mark = " "
            } else if journeyTimeouts.isAbandoned(request, hostNow: pendingClock) {
                ageStyle = Theme.danger
                mark = "✗"
            } else if age >= timeout / 2 {
                ageStyle = Theme.warning
                mark = "!"
            } else {
                ageStyle = Theme.success
                mark = " "
            }
            let selected = focus == .pending && index == pendingCursor
            let y = inner.y + row
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: Theme.selection) }
            let ageText = mark + TimeFormat.duration(ms: age)
            let ageWidth = 8
            let idWidth = 1 + CorrelationIdText.columnWidth(forPaneWidth: inner.width)
            let actionWidth = max(4, inner.width - ageWidth - idWidth - 2)
            var x = inner.x
            // The page that sent it is gone: an answer now reaches a page that never asked.
            let orphaned = live.orphanedPending.contains(request.correlationId)
            let action = orphaned ? "⊘ " + request.action : request.action
            x += buffer.write(TextWidth.fit(action, to: actionWidth), at: Point(x: x, y: y), style: selected ? Theme.selection : (orphaned || gone ? Theme.dim : .plain), maxWidth: actionWidth) + 1
            x = inner.x + actionWidth + 1
            buffer.write(CorrelationIdText.shortened(request.correlationId, to: idWidth - 1), at: Point(x: x, y: y), style: selected ? Theme.selection : Theme.dim, maxWidth: idWidth)
            x = inner.x + actionWidth + 1 + idWidth
            buffer.write(TextWidth.fit(ageText, to: ageWidth, alignment: .right), at: Point(x: x, y: y), style: selected ? Theme.selection : ageStyle, maxWidth: inner.maxX - x)
        }
    }

    /// The clock pending ages are measured by: the host's clock (``HostClock``; `since` is
    /// stamped by the host) now, or when the host went away (a gone host's requests stop
    /// ageing, since nobody can answer them); in a recording, its end (``recordingEnd``).
    var pendingClock: Double {
        if let recordingEnd { return recordingEnd }
        if case .disconnected(let since) = live.connection { return hostClock.hostNow(localNow: since) }
        return hostNow
    }

    /// The host's clock now: a recording's end in a recording (its ages are as of its end).
    var hostNow: Double { recordingEnd ?? hostClock.hostNow(localNow: now) }

    /// The journey's timeouts, which say when a pending request is abandoned: the reply rules'.
    var journeyTimeouts: JourneyTimeouts { replies.timeouts }

    // MARK: Slots

    private func renderSlots(into buffer: inout Buffer, area: Rect) {
        let inner = paneBox(&buffer, area, "Capture slots", .slots)
        guard !inner.isEmpty else { return }
        // Two lines a slot when there is room, else one (the flags line is left out).
        let linesPerSlot = self.linesPerSlot(rows: inner.height)
        let flagLines = SlotFlags.lines(for: live.slots, width: inner.width)
        for (index, slot) in live.slots.enumerated() where index * linesPerSlot < inner.height {
            let y = inner.y + index * linesPerSlot
            let selected = focus == .slots && index == slotCursor
            let base: Style = selected ? Theme.selection : .plain
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: min(linesPerSlot, inner.maxY - y)), style: Theme.selection) }
            var x = inner.x
            x += buffer.write(TextWidth.pad(slot.kind.rawValue, to: 9), at: Point(x: x, y: y), style: base.bolded, maxWidth: inner.maxX - x)
            if let active = slot.activeRequest {
                // `activeSince` is on the host's clock.
                let age = slot.activeSince.map { TimeFormat.duration(ms: max(0, hostNow - $0)) } ?? ""
                x += buffer.write("BUSY \(age) ", at: Point(x: x, y: y), style: selected ? base : Theme.danger, maxWidth: inner.maxX - x)
                let held = "held by "
                let idRoom = inner.maxX - x - TextWidth.width(of: held)
                buffer.write(held + CorrelationIdText.shortened(active, to: idRoom), at: Point(x: x, y: y), style: base, maxWidth: inner.maxX - x)
            } else {
                buffer.write("idle", at: Point(x: x, y: y), style: selected ? base : Theme.success, maxWidth: inner.maxX - x)
            }
            guard linesPerSlot == 2, y + 1 < inner.maxY else { continue }
            buffer.write(flagLines[index], at: Point(x: inner.x, y: y + 1), style: selected ? base : Theme.dim, maxWidth: inner.width)
        }
    }

    // MARK: Footer

    private func renderFooter(into buffer: inout Buffer, area: Rect) {
        if let prompt {
            buffer.fill(area)
            let label = prompt.kind == .filter ? "filter: " : "search: "
            let x = buffer.write(label, at: area.origin, style: Theme.paneTitleFocused, maxWidth: area.width)
            // The error is shown whole: beside the input when it fits there, else word-wrapped on
            // the rows just above the footer (over the panes' bottom edge while the prompt is open).
            let errorWidth = prompt.error.map { TextWidth.width(of: " " + $0) } ?? 0
            let besideInput = errorWidth <= area.width - x - 20
            let inputWidth = max(1, area.width - x - (besideInput ? errorWidth : 0))
            _ = prompt.input.draw(into: &buffer, in: Rect(x: x, y: area.y, width: inputWidth, height: 1), placeholder: "type:request action:camera.* is:pending text…")
            if let error = prompt.error {
                if besideInput {
                    buffer.write(" " + error, at: Point(x: x + inputWidth, y: area.y), style: Theme.danger, maxWidth: area.maxX - x - inputWidth)
                } else {
                    let lines = TextWrap.wrap(error, width: max(1, area.width - 2)).suffix(max(1, area.y - 1))
                    for (row, line) in lines.enumerated() {
                        let y = area.y - lines.count + row
                        buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: Theme.flashError)
                        buffer.write(" " + line, at: Point(x: area.x, y: y), style: Theme.flashError, maxWidth: area.width)
                    }
                }
            }
            return
        }
        if let flash {
            renderNotice(flash, into: &buffer, footer: area)
            return
        }
        buffer.fill(area, style: Theme.footer)
        // Whole hints only, the most important kept (FooterHints), one column of margin each side.
        var x = area.x + 1
        for (key, label) in FooterHints.fitting(footerKeys, width: area.width - 2) {
            x += buffer.write(key, at: Point(x: x, y: area.y), style: Theme.footerKey)
            x += buffer.write(" " + label, at: Point(x: x, y: area.y), style: Theme.footer)
            x += FooterHints.separator
        }
    }

    /// The most rows a notice takes (the footer's and the ones above it) on a screen `height`
    /// rows high: enough for the longest notices at 80x24, never more than a quarter of the screen.
    static func noticeRowLimit(height: Int) -> Int { max(1, min(6, height / 4)) }

    /// The notice that ends an action (``Flash``), whole: word-wrapped over as many rows as it
    /// needs, the last in the footer's row and the others over the rows just above it, up to
    /// ``noticeRowLimit(height:)``. A notice longer still ends with where to read it all: the
    /// action log (`A`) keeps every notice in full.
    private func renderNotice(_ flash: Flash, into buffer: inout Buffer, footer area: Rect) {
        let style = flash.isError ? Theme.flashError : Theme.flashInfo
        let width = max(1, area.width - 2)
        // Sanitised before it is measured, so the visible escapes of a host's text wrap too.
        var lines = DialogFrame.wrap([Span(Sanitizer.sanitize(flash.text), style)], width: width).map { $0.map(\.text).joined() }
        let limit = min(Self.noticeRowLimit(height: size.height), max(1, area.y - layout.status.maxY))
        if lines.count > limit {
            let more = "… (A: all of it)"
            let kept = Array(lines.prefix(limit))
            let last = kept[limit - 1]
            lines = kept.dropLast() + [TextWidth.truncate(last, to: max(1, width - TextWidth.width(of: more)), ellipsis: "") + more]
        }
        for (row, line) in lines.enumerated() {
            let y = area.y - (lines.count - 1) + row
            buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), style: style)
            buffer.write(" " + line, at: Point(x: area.x, y: y), style: style, maxWidth: area.width)
        }
    }

    /// The keys that matter now: the top view's, else the key table's hints offered in this
    /// state (``mainFooterKeys``); in a recording, none that send.
    var footerKeys: [(key: String, label: String)] {
        if let overlay = overlays.last {
            guard readOnly else { return overlay.footerKeys }
            let sending = overlay.sendingFooterKeys
            return overlay.footerKeys.filter { !sending.contains($0.key) }
        }
        return mainFooterKeys
    }
}

/// The second line of each slot in the Slots pane: its permission state first, then whether it
/// is enabled and whether it has a handler.
///
/// The pane is 38 columns wide at 120x40, so the words shorten until every slot's line fits:
/// the permission state is never the part that is cut off.
enum SlotFlags {
    /// One wording of the flags line: how far it is indented and how long its words are.
    struct Form {
        var indent: Int
        var permissionLabel: String
        var short: Bool
    }

    /// The wordings, longest first; the first in which every slot fits is used.
    static let forms = [
        Form(indent: 9, permissionLabel: "permission ", short: false),
        Form(indent: 9, permissionLabel: "permission ", short: true),
        Form(indent: 9, permissionLabel: "perm ", short: true),
        Form(indent: 2, permissionLabel: "perm ", short: true),
        Form(indent: 0, permissionLabel: "perm ", short: true),
        Form(indent: 0, permissionLabel: "", short: true),
    ]

    /// The flags line of `slot` in `form`.
    static func line(_ slot: WireSlot, _ form: Form) -> String {
        var flags = [form.permissionLabel + slot.permissionState.rawValue]
        flags.append(slot.enabled ? (form.short ? "on" : "enabled") : (form.short ? "OFF" : "DISABLED"))
        if slot.supported {
            flags.append("supported")
        } else {
            flags.append(slot.hasHandler ? "unsupported" : (form.short ? "no handler" : "no handler: requests go to pending"))
        }
        return String(repeating: " ", count: form.indent) + flags.joined(separator: " · ")
    }

    /// The flags lines of `slots`, in one wording, for a pane `width` columns wide.
    static func lines(for slots: [WireSlot], width: Int) -> [String] {
        let form = forms.first { form in slots.allSatisfy { TextWidth.width(of: line($0, form)) <= width } } ?? forms[forms.count - 1]
        return slots.map { line($0, form) }
    }
}

extension Style {
    var bolded: Style {
        var copy = self
        copy.bold = true
        return copy
    }
}
