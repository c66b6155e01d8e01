import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

extension InspectorModel {
    /// Applies one input and returns what the runner must do.
    @discardableResult
    public mutating func handle(_ input: InspectorInput) -> [InspectorEffect] {
        switch input {
        case .key(let key):
            return handleKey(key)
        case .resize(let newSize):
            size = newSize
            clampCursors()
        case .mouse(let event):
            return handleMouse(event)
        case .frame(let frame):
            hostClock.observe(frame, at: now)
            apply(frame)
            if case .snapshot = frame { recomputeComparisonsAwaitingHost() }
            offerPendingToRules()
            return dueReplies()
        case .notice(let text, let isError):
            showFlash(text, isError: isError)
        case .recordingSaved(let outcome):
            recordingSaved(outcome)
        case .comparisonLoaded(let path, let contents):
            comparisonLoaded(path: path, contents: contents)
        case .faultRulesLoaded(let path, let result):
            return faultRulesLoaded(path: path, result: result)
        case .faultRulesSaved(let outcome):
            faultRulesSaved(outcome)
        case .attaching(let path, let note):
            socketPath = path
            if let note { showFlash(note, isError: false) }
        case .disconnected:
            live.markDisconnected(at: now)
            refreshVisible()
            overlaysFollowLive()
        case .tick(let time):
            tick(to: time)
            return dueReplies()
        case .commandSent(let id, let label):
            commandSent(id: id, label: label)
        case .commandFailed(let label, let error):
            commandFailed(label: label, error: error)
        case .editorFinished(let purpose, let text):
            guard let text else {
                showFlash("the editor did not save; nothing changed", isError: true)
                return []
            }
            // The innermost view that asked for this purpose takes the text.
            for index in overlays.indices.reversed() {
                if overlays[index].editorFinished(purpose, text: text) { return [] }
            }
        }
        return []
    }

    // MARK: Frames

    mutating func apply(_ frame: AgentFrame) {
        if case .hello(let hello) = frame { clientId = hello.clientId }
        if case .reply(let id, let result, _) = frame, let id {
            settle(commandId: id, result: result)
            return
        }
        if case .reply(nil, .failure(let error), _) = frame {
            showFlash("host: \(error.message)", isError: true)
            return
        }
        let before = live.log.count
        let selectedPendingId = selectedPending?.correlationId
        let filterUsesPending = filter.usesPending
        let pendingBefore = filterUsesPending ? live.pending.map(\.correlationId) : []
        live.apply(frame, at: now)
        // By index: iterating a slice of the log would copy each new entry out.
        for index in before..<max(before, live.log.count) where live.log[index].kind == .message || live.log[index].kind == .malformed {
            recentArrivals.append(live.log[index].time)
        }
        if recentArrivals.count > 4096 { recentArrivals.removeFirst(recentArrivals.count - 2048) }
        if filterUsesPending && live.pending.map(\.correlationId) != pendingBefore {
            // is:pending depends on pendingRequests, not only on the rows: look at every row again.
            refreshVisibleKeepingSelection()
        } else {
            refreshVisible()
        }
        // The selection is a request, not a position: keep it when others come and go.
        if let selectedPendingId, let index = live.pending.firstIndex(where: { $0.correlationId == selectedPendingId }) {
            pendingCursor = index
        }
        clampCursors()
        overlaysFollowLive()
    }

    /// Lets each open view catch up with ``live`` after it changed (``OverlayView/follow(context:)``).
    mutating func overlaysFollowLive() {
        guard !overlays.isEmpty else { return }
        let context = overlayContext
        for index in overlays.indices { overlays[index].follow(context: context) }
    }

    /// Rebuilds ``visible`` from scratch, keeping the selected row selected (or the next one shown).
    mutating func refreshVisibleKeepingSelection() {
        let selected = visible[safe: cursor]
        refreshVisible(rebuild: true)
        guard !following, let selected else { return }
        viewport.reselect(visible.firstIndex { $0 >= selected } ?? max(0, visible.count - 1))
    }

    // MARK: The visible rows

    /// Brings ``visible`` up to date with the log (incrementally when only rows were added).
    mutating func refreshVisible(rebuild: Bool = false) {
        if rebuild || examined > live.log.count {
            visible.removeAll(keepingCapacity: true)
            examined = 0
        }
        let limit = pausedAt.map { min($0, live.log.count) } ?? live.log.count
        guard examined < limit else {
            // Rebuilt to nothing (paused before the first row): the viewport has no rows either.
            if viewport.count != visible.count { viewport.rowsChanged(count: visible.count) }
            return
        }
        let pending = filter.usesPending ? pendingIds : []
        // Borrow the rows instead of copying each one out (a copy retains its strings and JSON):
        // a filter change looks at every row, a million in a long session. The matches go
        // straight onto the visible rows (taken out and put back, not copied), not into an array
        // of their own first: one new row a frame made and grew an array each time (issue 30).
        let filter = filter
        var rows: [Int] = []
        swap(&rows, &visible)
        live.log.withUnsafeBufferPointer { log in
            for index in examined..<limit where filter.matches(at: log.baseAddress! + index, pending: pending) { rows.append(index) }
        }
        visible = rows
        examined = limit
        viewport.rowsChanged(count: visible.count)
    }

    /// Keeps every selection on a row that exists.
    mutating func clampCursors() {
        viewport.clamp()
        pendingCursor = min(max(0, pendingCursor), max(0, live.pending.count - 1))
        slotCursor = min(max(0, slotCursor), max(0, live.slots.count - 1))
    }

    /// Selects the log row with sequence number `seq`, clearing a filter that hides it.
    mutating func jump(toSeq seq: Int) {
        guard let logIndex = live.logIndex(ofSeq: seq) else {
            showFlash("that message is no longer in the log", isError: true)
            return
        }
        if let pausedAt, logIndex >= pausedAt {
            // The message arrived after the pause: resume, or it cannot be shown.
            viewport.unpauseKeepingPlace()
            refreshVisible()
            showFlash("display resumed to show the message", isError: false)
        }
        if !visible.contains(logIndex) {
            filter = .all
            refreshVisible(rebuild: true)
            showFlash("filter cleared to show the message", isError: false)
        }
        if let row = visible.firstIndex(of: logIndex) {
            focus = .messages
            viewport.move(to: row)
        }
    }

    // MARK: Keys

    private mutating func handleKey(_ key: Key) -> [InspectorEffect] {
        if layout.isTooSmall, key != .char("q"), key != .ctrl("c") { return [] }
        // A binding that works everywhere (Ctrl-C) acts before any prompt or view sees the key.
        if let binding = Self.mainKeys[key], binding.everywhere, case .main(let action) = binding.handler { return action(&self, key) }
        if prompt != nil { return handlePromptKey(key) }
        if let top = overlays.last {
            if opensHelp(key, over: top), case .main(let openHelp)? = Self.helpBinding?.handler { return openHelp(&self, key) }
            let context = overlayContext
            let action = overlays[overlays.count - 1].handle(key, context: context)
            return perform(action)
        }
        return handleMainKey(key)
    }

    /// Whether `key` opens the help over `view`: the help binding's keys work in every view but
    /// the help itself (where they close it), except that a character is text in a view that
    /// takes text (`?` is typed there; F1 still opens the help).
    private func opensHelp(_ key: Key, over view: any OverlayView) -> Bool {
        guard Self.helpBinding?.keys.contains(key) == true, !(view is HelpView) else { return false }
        if case .char = key { return !view.takesText }
        return true
    }

    private mutating func perform(_ action: OverlayAction) -> [InspectorEffect] {
        switch action {
        case .none:
            return []
        case .close:
            overlays.removeLast()
            return []
        case .send(let command, let label):
            // Not sent (disconnected, a recording): the dialog stays open with what was typed.
            let effects = send(command, label: label)
            guard !effects.isEmpty else { return [] }
            closeSentDialog(label: label, command: command)
            return effects
        case .sendAll(let commands):
            // Not sent (disconnected, a recording): the dialog stays, and the flash says why.
            let effects = commands.flatMap { send($0.command, label: $0.label) }
            if !effects.isEmpty { overlays.removeLast() }
            return effects
        case .sendAndStay(let command, let label):
            return send(command, label: label)
        case .push(let overlay):
            overlays.append(overlay)
            return []
        case .switchTo(let overlay):
            overlays[overlays.count - 1] = overlay
            return []
        case .openEditor(let text, let purpose):
            return [.openEditor(text: text, purpose: purpose)]
        case .jumpToSeq(let seq):
            overlays.removeAll()
            jump(toSeq: seq)
            return []
        case .flash(let text, let isError):
            showFlash(text, isError: isError)
            return []
        case .unbound(let key):
            showUnboundKeyNotice(key, inView: true)
            return []
        case .sendAndRemember(let command, let label, let rule):
            closeSentDialog(label: label, command: command)
            // The request being answered now is not offered to the new rule again.
            if case .respond(let args) = command { replies.markAnswered(args.correlationId) }
            addRule(rule)
            return send(command, label: label) + dueReplies()
        case .addRule(let rule):
            overlays.removeLast()
            addRule(rule)
            // Back in the rules view, the new rule is the selected one.
            if var view = overlays.last as? RulesView {
                view.cursor = max(0, rules.rules.count - 1)
                overlays[overlays.count - 1] = view
            }
            return dueReplies()
        case .removeRule(let id):
            if let removed = replies.book.remove(id: id) { showFlash("rule \(removed.name) removed after \(removed.hits) hits", isError: false) }
            return []
        case .toggleRule(let id):
            if let rule = rules.rule(id: id) { replies.book.setEnabled(!rule.isEnabled, id: id) }
            // A resumed rule answers what is pending now.
            offerPendingToRules()
            return dueReplies()
        case .quit:
            quitting = true
            return [.quit]
        case .copy(let logIndex, let format):
            return copy(logIndex: logIndex, as: format)
        case .saveRecording(let path, let overwrite):
            overlays.removeLast()
            return saveRecording(to: path, overwrite: overwrite)
        case .loadComparison(let path):
            overlays.removeLast()
            return [.loadComparison(path: path)]
        case .loadFaultRules(let path):
            overlays.removeLast()
            return [.loadFaultRules(path: path)]
        case .saveFaultRules(let path, let overwrite):
            overlays.removeLast()
            return saveFaultRules(to: path, overwrite: overwrite)
        case .run(let name, let argument):
            overlays.removeAll()
            return runCommand(named: name, argument: argument)
        }
    }

    private mutating func handlePromptKey(_ key: Key) -> [InspectorEffect] {
        guard var current = prompt else { return [] }
        switch key {
        case .escape:
            prompt = nil
            return []
        case .enter:
            let parsed: LogFilter
            do {
                parsed = try LogFilter.parse(current.input.text)
            } catch {
                // Keep the prompt and what was typed (the error shows in it), so the mistake can be fixed.
                current.error = error.description
                prompt = current
                return []
            }
            prompt = nil
            _ = current.input.submit()
            apply(parsed, as: current.kind)
            return []
        default:
            _ = current.input.handle(key)
            do {
                _ = try LogFilter.parse(current.input.text)
                current.error = nil
            } catch {
                current.error = error.description
            }
            prompt = current
            return []
        }
    }

    /// Puts a filter or a search typed at its prompt (or after `:filter`, `:search`) in force.
    mutating func apply(_ parsed: LogFilter, as kind: Prompt.Kind) {
        // A filter or a search is about the Messages pane: the focus goes there, so the next
        // Enter opens the message found, not the slot or pending dialog that had the focus.
        focus = .messages
        switch kind {
        case .filter:
            filter = parsed
            refreshVisible(rebuild: true)
            viewport.move(to: visible.count - 1)
            showFlash(parsed.isEmpty ? "filter cleared" : "filter: \(parsed.source) (\(visible.count) rows)", isError: false)
        case .search:
            search = parsed.isEmpty ? nil : parsed
            if search != nil { jumpToMatch(forward: true, includeCurrent: true) }
        }
    }

    /// Says that `key` does nothing here and where the keys are listed, rather than nothing
    /// at all: a person who pressed `:` or `Q` learns it was not taken, and of `?`.
    mutating func showUnboundKeyNotice(_ key: Key, inView: Bool) {
        let name = key == .char(" ") ? "space" : key.description
        showFlash("\(name) does nothing \(inView ? "in this view" : "here"): ? lists the keys", isError: false)
    }

    /// Moves to the next (or previous) row that matches the search.
    mutating func jumpToMatch(forward: Bool, includeCurrent: Bool = false) {
        guard let search else {
            showFlash("no search: press / to search", isError: true)
            return
        }
        let pending = pendingIds
        let count = visible.count
        guard count > 0 else { return }
        for step in (includeCurrent ? 0 : 1)...count {
            let row = ((cursor + (forward ? step : -step)) % count + count) % count
            if search.matches(live.log[visible[row]], pending: pending), live.log[visible[row]].kind == .message || live.log[visible[row]].kind == .malformed {
                viewport.move(to: row)
                return
            }
        }
        showFlash("no match for \(search.source)", isError: true)
    }

    /// A key on the main screen: what its binding in ``keyTable`` does, unless it sends
    /// something and this is a recording.
    private mutating func handleMainKey(_ key: Key) -> [InspectorEffect] {
        guard let binding = Self.mainKeys[key], case .main = binding.handler else {
            showUnboundKeyNotice(key, inView: false)
            return []
        }
        return run(binding, key: key)
    }

    /// Runs a main-screen binding for `key` (pressed, or its first key when run by name from
    /// the command prompt): what it does, unless it sends something and this is a recording.
    /// `argument` is what the prompt took after the name (`:filter EXPR`), done directly; a
    /// binding that takes nothing ignores it.
    mutating func run(_ binding: KeyBinding, key: Key, argument: String? = nil) -> [InspectorEffect] {
        guard case .main(let action) = binding.handler else { return [] }
        guard !readOnly || binding.allowedReadOnly else {
            showFlash("\(readOnlyWhy): nothing can be sent", isError: true)
            return []
        }
        if let argument, let kind = CommandCatalog.arguments[binding.name] { return runCommand(kind, argument: argument) }
        return action(&self, key)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
