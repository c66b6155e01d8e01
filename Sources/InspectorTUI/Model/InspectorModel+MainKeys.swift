import BridgeCore
import InspectorClient
import InspectorProtocol
import TerminalUI

/// What the main screen's keys do (``InspectorModel/keyTable`` binds them): each returns the
/// effects for the runner.
extension InspectorModel {
    /// Opens `overlay` over the screen.
    @discardableResult
    mutating func open(_ overlay: any OverlayView) -> [InspectorEffect] {
        overlays.append(overlay)
        return []
    }

    /// Quits, first asking when quitting undoes something: active reply rules stop answering,
    /// and this inspector's breakpoints go with its connection, releasing what they hold
    /// (docs/inspector-protocol.md 13.2). The question says each of these.
    mutating func quitAsking() -> [InspectorEffect] {
        guard let question = quitQuestion else {
            quitting = true
            return [.quit]
        }
        return open(ConfirmDialog(quitQuestion: question))
    }

    /// What quitting now would undo, as a question, or `nil` when it undoes nothing.
    var quitQuestion: String? {
        var consequences: [String] = []
        let active = rules.rules.filter(\.isActive).count
        if active > 0, !readOnly {
            consequences.append(
                "\(active) active reply rule\(active == 1 ? "" : "s") will stop answering (they are saved, and come back paused next time).")
        }
        let own = ownBreakpointIds
        if !own.isEmpty {
            let holding = live.held.filter { own.contains($0.breakpoint) }.count
            let plural = own.count == 1 ? "" : "s"
            var sentence = "Your \(own.count) breakpoint\(plural) will be removed"
            if holding > 0 {
                sentence += " and the \(holding) message\(holding == 1 ? "" : "s") \(own.count == 1 ? "it holds" : "they hold") released as \(holding == 1 ? "it is" : "they are")"
            }
            consequences.append(sentence + ".")
        }
        let faults = ownFaultIds.count
        if faults > 0 {
            consequences.append("Your \(faults) fault rule\(faults == 1 ? "" : "s") will be removed: the host handles messages as usual again.")
        }
        guard !consequences.isEmpty else { return nil }
        return "Quit? " + consequences.joined(separator: " ")
    }

    /// The ids of the breakpoints this inspector set (they go when it disconnects); none before
    /// the agent's hello names this connection, or in a recording.
    var ownBreakpointIds: Set<String> {
        guard let clientId, !readOnly else { return [] }
        return Set(live.breakpoints.filter { $0.ownerClient == clientId }.map(\.id))
    }

    /// Esc on the main screen: clears the search, else the filter.
    mutating func clearSearchOrFilter() -> [InspectorEffect] {
        if search != nil {
            search = nil
        } else if !filter.isEmpty {
            filter = .all
            refreshVisible(rebuild: true)
            showFlash("filter cleared", isError: false)
        }
        return []
    }

    /// Opens the filter or search prompt with what is in force.
    mutating func openPrompt(_ kind: Prompt.Kind) -> [InspectorEffect] {
        let text = kind == .filter ? filter.source : search?.source ?? ""
        prompt = Prompt(kind: kind, input: TextInput(text: text), error: nil)
        return []
    }

    /// Enter: opens what the focused pane selects.
    mutating func openSelected() -> [InspectorEffect] {
        switch focus {
        case .messages:
            if let entry = selectedEntry, entry.kind == .message || entry.kind == .malformed, let index = visible[safe: cursor] {
                open(DetailView(logIndex: index, context: overlayContext))
            }
        case .pending:
            openRespond()
        case .slots:
            openSlot(action: .complete)
        }
        return []
    }

    /// Jumps to the newest row and follows, resuming a paused display.
    mutating func follow() -> [InspectorEffect] {
        if pausedAt != nil { togglePause() }
        viewport.end()
        return []
    }

    /// Selects the message that caused lastError.
    mutating func jumpToErrorCause() -> [InspectorEffect] {
        if let cause = live.lastError?.cause { jump(toSeq: cause) } else { showFlash("lastError has no message to jump to", isError: true) }
        return []
    }

    /// Asks before clearing lastError on the host.
    mutating func askToClearError() -> [InspectorEffect] {
        guard supports(.clearError) else { return [] }
        guard live.lastError != nil else {
            showFlash("lastError is already clear", isError: false)
            return []
        }
        return open(ConfirmDialog(question: "Clear lastError on the host?", command: .clearError, label: "clear lastError"))
    }

    /// Asks before clearing the host's message log.
    mutating func askToClearLog() -> [InspectorEffect] {
        guard supports(.clearLog) else { return [] }
        return open(
            ConfirmDialog(
                question: "Clear the host's message log (receivedMessages)? The inspector keeps what it shows.",
                command: .clearLog, label: "clear the host's message log"))
    }

    /// Pauses the display (new rows are kept, not shown), or resumes it.
    @discardableResult
    mutating func togglePause() -> [InspectorEffect] {
        if pausedAt == nil {
            viewport.pause(atLogCount: live.log.count)
            showFlash("paused: new messages are kept but not shown (space to resume)", isError: false)
        } else {
            // Paused while on the newest row: follow again, so the rows kept meanwhile come into view.
            viewport.resume()
            refreshVisible()
            showFlash("resumed", isError: false)
        }
        return []
    }

    /// A move of the selection: what the moving keys ask for.
    enum SelectionMove: Sendable {
        case down, up, first, last, pageDown, pageUp
    }

    /// Moves the focused pane's selection: the Messages pane pages, the Pending pane has a first
    /// and last row, the Slots pane only moves up and down.
    mutating func moveSelection(_ move: SelectionMove) -> [InspectorEffect] {
        switch focus {
        case .messages:
            switch move {
            case .down: viewport.move(by: 1)
            case .up: viewport.move(by: -1)
            case .first: viewport.home()
            case .last: viewport.end()
            case .pageDown: viewport.move(pages: 1)
            case .pageUp: viewport.move(pages: -1)
            }
        case .pending:
            switch move {
            case .down: pendingCursor += 1
            case .up: pendingCursor -= 1
            case .first: pendingCursor = 0
            case .last: pendingCursor = live.pending.count - 1
            case .pageDown, .pageUp: break
            }
            clampCursors()
        case .slots:
            switch move {
            case .down: slotCursor += 1
            case .up: slotCursor -= 1
            case .first, .last, .pageDown, .pageUp: break
            }
            clampCursors()
        }
        return []
    }

    /// The request `r` answers: the selected row in the Pending pane, the selected request in
    /// the Messages pane, else the only pending request. Never a selection the person cannot
    /// see (the Pending pane's cursor while another pane has the focus).
    var respondTarget: WirePending? {
        if focus == .pending { return selectedPending }
        if focus == .messages, let entry = selectedEntry, entry.type == .request {
            return live.pending.first { $0.correlationId == entry.correlationId }
        }
        return live.pending.count == 1 ? live.pending.first : nil
    }

    /// Opens the respond dialog on ``respondTarget``, or says why there is none.
    @discardableResult
    mutating func openRespond() -> [InspectorEffect] {
        guard supports(.respond) else { return [] }
        guard let target = respondTarget else {
            if live.pending.isEmpty {
                showFlash("no pending request to answer", isError: true)
            } else if focus == .messages, let entry = selectedEntry, entry.type == .request {
                showFlash("\(entry.correlationId) is not pending (already answered, or a handler or slot holds it)", isError: true)
            } else {
                showFlash("\(live.pending.count) requests are pending: select one (a request row, or Tab to the Pending pane)", isError: true)
            }
            return []
        }
        return open(RespondDialog(request: target))
    }

    /// The slot to act on: the selected one in the Slots pane, else the only busy one.
    var slotTarget: WireSlot? {
        if focus == .slots { return selectedSlot }
        let busy = live.slots.filter { $0.activeRequest != nil }
        return busy.count == 1 ? busy[0] : selectedSlot
    }

    /// Opens the dialog that completes (or, asking first, cancels) ``slotTarget``'s request.
    @discardableResult
    mutating func openSlot(action: SlotDialog.Action) -> [InspectorEffect] {
        guard supports(.completeSlot) else { return [] }
        guard let slot = slotTarget else {
            showFlash("no capture slot selected (Tab to the Slots pane)", isError: true)
            return []
        }
        guard slot.activeRequest != nil else {
            showFlash("the \(slot.kind.rawValue) slot is idle: no request to \(action == .complete ? "complete" : "cancel")", isError: true)
            return []
        }
        return action == .cancel ? open(ConfirmDialog.cancelCapture(slot)) : open(SlotDialog(slot: slot))
    }

    /// Enables the slot, or asks before disabling it.
    mutating func toggleSlotEnabled() -> [InspectorEffect] {
        guard let slot = slotTarget ?? selectedSlot else { return [] }
        let enable = !slot.enabled
        let command = InspectorCommand.setSlotEnabled(.init(slot: slot.kind, enabled: enable))
        let label = "\(enable ? "enable" : "disable") the \(slot.kind.rawValue) slot"
        if enable {
            return send(command, label: label)
        } else {
            return open(
                ConfirmDialog(
                    question: "Disable the \(slot.kind.rawValue) slot? Its requests will go to pendingRequests and it is reported unsupported.",
                    command: command, label: label))
        }
    }

    /// Sends the slot's next permission state.
    mutating func cyclePermission() -> [InspectorEffect] {
        guard let slot = slotTarget ?? selectedSlot else { return [] }
        let all = PermissionState.allCases
        let next = all[((all.firstIndex(of: slot.permissionState) ?? 0) + 1) % all.count]
        let label = "set the \(slot.kind.rawValue) slot's permission to \(next.rawValue)"
        return send(.setSlotPermission(.init(slot: slot.kind, permissionState: next)), label: label)
    }
}
