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
        case .frame(let frame):
            hostClock.observe(frame, at: now)
            apply(frame)
            offerPendingToRules()
            return dueReplies()
        case .notice(let text, let isError):
            showFlash(text, isError: isError)
        case .attaching(let path, let note):
            socketPath = path
            if let note { showFlash(note, isError: false) }
        case .disconnected:
            live.markDisconnected(at: now)
            refreshVisible()
        case .tick(let time):
            now = time
            if let flash, flash.until <= now { self.flash = nil }
            return dueReplies()
        case .commandSent(let id, let label):
            if unsentDialog?.label == label { unsentDialog = nil }
            if let index = actions.lastIndex(where: { $0.label == label && $0.commandId == nil }) {
                actions[index].commandId = id
                inFlight[id] = index
            }
        case .commandFailed(let label, let error):
            if let correlationId = ruleReplyLabels.removeValue(forKey: label) { replies.outcome(of: correlationId, answered: false) }
            if let index = actions.lastIndex(where: { $0.label == label && $0.commandId == nil }) {
                actions[index].outcome = .refused(error)
            }
            showFlash("\(label): \(error)", isError: true)
            reopenUnsentDialog(label: label, error: error)
            settleStayingDialog(label: label, result: .failure(InspectorError(code: "not_sent", message: "not sent (\(error)): Enter tries again")))
        case .editorFinished(let purpose, let text):
            guard let text else {
                showFlash("the editor did not save; nothing changed", isError: true)
                return []
            }
            for index in overlays.indices.reversed() {
                switch overlays[index] {
                case .respond(var dialog) where purpose == .responseData:
                    dialog.setData(text)
                    overlays[index] = .respond(dialog)
                    return []
                case .newRule(var dialog) where purpose == .responseData:
                    dialog.setData(text)
                    overlays[index] = .newRule(dialog)
                    return []
                case .event(var dialog) where purpose == .eventData:
                    dialog.setData(text)
                    overlays[index] = .event(dialog)
                    return []
                case .heldEdit(var dialog) where purpose == .heldMessage:
                    dialog.setText(text)
                    overlays[index] = .heldEdit(dialog)
                    return []
                default:
                    continue
                }
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
        for entry in live.log[before...] where entry.kind == .message || entry.kind == .malformed {
            recentArrivals.append(entry.time)
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
    }

    /// Rebuilds ``visible`` from scratch, keeping the selected row selected (or the next one shown).
    mutating func refreshVisibleKeepingSelection() {
        let selected = visible[safe: cursor]
        refreshVisible(rebuild: true)
        guard !following, let selected else { return }
        viewport.reselect(visible.firstIndex { $0 >= selected } ?? max(0, visible.count - 1))
    }

    private mutating func settle(commandId: String, result: Result<JSONValue, InspectorError>) {
        guard let index = inFlight.removeValue(forKey: commandId), actions.indices.contains(index) else { return }
        if let correlationId = ruleReplyLabels.removeValue(forKey: actions[index].label) {
            let rule = replies.outcome(of: correlationId, answered: (try? result.get()) != nil)
            if case .failure(let error) = result, error.knownCode == .alreadyAnswered || error.knownCode == .notPending {
                // Another inspector (or a person) answered first: the host refused ours, which is
                // no failure of this inspector's; the rule still owes that answer.
                actions[index].outcome = .refused(error.message)
                showFlash("rule \(rule?.name ?? ""): \(correlationId) was answered elsewhere first; not counted", isError: false)
                return
            }
        }
        switch result {
        case .success:
            actions[index].outcome = .done
            showFlash("✓ \(actions[index].label)", isError: false)
        case .failure(let error):
            actions[index].outcome = .refused(error.message)
            showFlash("✗ \(actions[index].label): \(error.message)", isError: true)
        }
        settleStayingDialog(label: actions[index].label, result: result)
    }

    /// Whether the attached host can do `feature`; when it cannot, says why (the reason the host
    /// gave in its handshake, such as GBGBridge's public API having no `clearError()`).
    mutating func supports(_ feature: HostFeature) -> Bool {
        guard let reason = live.host?.unsupportedReason(feature) else { return true }
        showFlash("not available for this host: \(reason)", isError: true)
        return false
    }

    mutating func showFlash(_ text: String, isError: Bool) {
        flash = Flash(text: text, isError: isError, until: now + (isError ? 8000 : 4000))
    }

    /// Records an action and returns the effect that sends it.
    mutating func send(_ command: InspectorCommand, label: String) -> [InspectorEffect] {
        guard !readOnly else {
            showFlash("this is a recording: nothing can be sent", isError: true)
            return []
        }
        guard !live.isDisconnected else {
            showFlash("not connected to the host: \(label) was not sent", isError: true)
            return []
        }
        actions.append(ActionRecord(time: now, label: label, commandId: nil, outcome: nil))
        if case .sendEvent(let args) = command {
            let text = args.data.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) } ?? "{}"
            let draft = EventDraft(name: args.name, dataText: text)
            eventHistory.removeAll { $0 == draft }
            eventHistory.append(draft)
            if eventHistory.count > Self.eventHistoryLimit { eventHistory.removeFirst(eventHistory.count - Self.eventHistoryLimit) }
        }
        return [.send(command, label: label)]
    }

    /// Closes the dialog whose command was just sent, keeping it to reopen should the send fail
    /// before reaching the host; a response sent by hand from the respond dialog is remembered
    /// for its action (unless it is a built-in template; ``InspectorStateStore`` saves the list).
    mutating func closeSentDialog(label: String, command: InspectorCommand) {
        guard let closed = overlays.popLast() else { return }
        unsentDialog = (label, closed)
        guard case .respond(let dialog) = closed, case .respond(let args) = command else { return }
        let response = ReplyRule.Response(status: args.status, data: args.data, error: args.error)
        let builtIn = ResponseFields.templates(for: dialog.request.action).contains { template in
            guard case .success(let data) = DataField.parse(template.data) else { return false }
            return ReplyRule.Response(status: template.status, data: data, error: template.error) == response
        }
        guard !builtIn else { return }
        rememberedResponses.add(response, for: dialog.request.action)
    }

    /// Reopens the dialog that sent `label` when sending failed before it reached the host, with
    /// what was typed and the error, so nothing typed is lost.
    mutating func reopenUnsentDialog(label: String, error: String) {
        guard let unsent = unsentDialog, unsent.label == label else { return }
        unsentDialog = nil
        var overlay = unsent.overlay
        if case .respond(var dialog) = overlay {
            dialog.sendError = "not sent (\(error)): Enter tries again"
            overlay = .respond(dialog)
        }
        overlays.append(overlay)
    }

    // MARK: Reply rules

    /// Offers the pending requests to the reply rules (``ReplyScheduler``); says when a rule's use
    /// was given back or an abandoned request was left alone.
    mutating func offerPendingToRules() {
        guard !rules.isEmpty, !readOnly else { return }
        let update = replies.update(pending: live.pending, now: now, hostNow: hostClock.hostNow(localNow: now))
        if let given = update.gaveBack.last {
            showFlash("rule \(given.rule.name): \(given.request.correlationId) was answered elsewhere during the delay; not counted", isError: false)
        }
        if let skipped = update.skippedAbandoned.last {
            showFlash(
                "rules skip \(skipped.action) \(skipped.correlationId): pending past the journey's timeout, it has given up on it (answer it with r)",
                isError: false)
        }
    }

    /// Adds a reply rule (from "remember" in the respond dialog or the rules view's new-rule
    /// form), says so, and offers it the pending requests not yet offered to the rules.
    @discardableResult
    mutating func addRule(_ rule: ReplyRule) -> ReplyRule {
        let added = replies.book.add(rule)
        showFlash("rule \(added.name) will answer \(added.times.map { "the next \($0)" } ?? "every") \(added.action) request", isError: false)
        offerPendingToRules()
        return added
    }

    /// Sends the rule answers whose delay has passed.
    mutating func dueReplies() -> [InspectorEffect] {
        replies.due(now: now).flatMap { reply -> [InspectorEffect] in
            let label = "rule \(reply.rule.name): respond \(reply.rule.response.status.rawValue) to \(reply.request.action) \(reply.request.correlationId)"
            let effects = send(.respond(reply.command), label: label)
            if effects.isEmpty {
                replies.outcome(of: reply.request.correlationId, answered: false)
            } else {
                ruleReplyLabels[label] = reply.request.correlationId
            }
            return effects
        }
    }

    /// Takes reply rules kept from an earlier run (or shared as a rules file), **paused**: a rule
    /// that answered live traffic on its own the moment the inspector opened would surprise; the
    /// note says how many there are and how to resume them (R, then space).
    public mutating func loadRules(_ book: ReplyRuleBook, from path: String) {
        var loaded = book
        loaded.resetHits()
        loaded.setAllEnabled(false)
        for rule in loaded.rules { replies.book.add(rule) }
        guard !loaded.isEmpty else { return }
        let count = loaded.rules.count
        showFlash("\(count) reply rule\(count == 1 ? "" : "s") loaded from \(path), paused: R to see them, space to resume one", isError: false)
    }

    /// The most events the history keeps (and saves).
    public static let eventHistoryLimit = 50

    /// Takes the event history kept from an earlier run (the newest ``eventHistoryLimit``).
    public mutating func loadEventHistory(_ drafts: [EventDraft]) {
        eventHistory = Array(drafts.suffix(Self.eventHistoryLimit))
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
        // a filter change looks at every row, a million in a long session.
        let filter = filter
        let matching = live.log.withUnsafeBufferPointer { log in
            (examined..<limit).filter { filter.matches(at: log.baseAddress! + $0, pending: pending) }
        }
        visible.append(contentsOf: matching)
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
        if var overlay = overlays.popLast() {
            let action = overlay.handle(key, model: self)
            overlays.append(overlay)
            return perform(action)
        }
        return handleMainKey(key)
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
            if case .rules(var view)? = overlays.last {
                view.cursor = max(0, rules.rules.count - 1)
                overlays[overlays.count - 1] = .rules(view)
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
            switch current.kind {
            case .filter:
                filter = parsed
                refreshVisible(rebuild: true)
                viewport.move(to: visible.count - 1)
                showFlash(parsed.isEmpty ? "filter cleared" : "filter: \(parsed.source) (\(visible.count) rows)", isError: false)
            case .search:
                search = parsed.isEmpty ? nil : parsed
                if search != nil { jumpToMatch(forward: true, includeCurrent: true) }
            }
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
        guard let binding = Self.mainKeys[key], case .main(let action) = binding.handler else { return [] }
        guard !readOnly || binding.allowedReadOnly else {
            showFlash("this is a recording: nothing can be sent (it is read-only)", isError: true)
            return []
        }
        return action(&self, key)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
