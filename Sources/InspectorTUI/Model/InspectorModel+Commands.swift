import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

/// Command bookkeeping: what the inspector sends on the person's behalf, the action log, and
/// what becomes of each command (sent, refused before reaching the host, answered).
extension InspectorModel {
    /// A command asked for went out with id `id`: its action waits for the host's answer.
    mutating func commandSent(id: String, label: String) {
        if unsentDialog?.label == label { unsentDialog = nil }
        if let index = actions.lastIndex(where: { $0.label == label && $0.commandId == nil }) {
            actions[index].commandId = id
            inFlight[id] = index
        }
    }

    /// Sending command `label` failed before it reached the host: its action is refused, a rule
    /// is given its use back, and the dialog that sent it comes back with what was typed.
    mutating func commandFailed(label: String, error: String) {
        if let correlationId = ruleReplyLabels.removeValue(forKey: label) { replies.outcome(of: correlationId, answered: false) }
        if let index = actions.lastIndex(where: { $0.label == label && $0.commandId == nil }) {
            actions[index].outcome = .refused(error)
        }
        showFlash("\(label): \(error)", isError: true, logged: false)
        reopenUnsentDialog(label: label, error: error)
        settleStayingDialog(label: label, result: .failure(InspectorError(code: "not_sent", message: "not sent (\(error)): Enter tries again")))
    }

    /// The host answered command `commandId`: its action is done or refused, and a rule's
    /// answer is counted (or given back when another inspector answered first).
    mutating func settle(commandId: String, result: Result<JSONValue, InspectorError>) {
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
            showFlash("✓ \(actions[index].label)", isError: false, logged: false)
        case .failure(let error):
            actions[index].outcome = .refused(error.message)
            showFlash("✗ \(actions[index].label): \(error.message)", isError: true, logged: false)
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

    /// Shows `text` above the footer for a while (longer for an error), and keeps it in the
    /// action log's notices unless `logged` is false (the outcome of an action, which the log
    /// shows on the action's own line).
    mutating func showFlash(_ text: String, isError: Bool, logged: Bool = true) {
        let shown = noticeClock ?? now
        flash = Flash(text: text, isError: isError, until: shown + (isError ? 8000 : 4000))
        guard logged else { return }
        if let last = notices.last, last.text == text, last.isError == isError {
            notices[notices.count - 1].repeats += 1
            notices[notices.count - 1].time = shown
        } else {
            notices.append(NoticeRecord(time: shown, text: text, isError: isError))
            if notices.count > NoticeRecord.limit { notices.removeFirst(notices.count - NoticeRecord.limit) }
        }
    }

    /// The clock moved to `time` (a tick): notices time out on it. A recording's ages stay at
    /// its end; only a live inspector's ``now`` follows.
    mutating func tick(to time: Double) {
        if noticeClock == nil, recordingEnd != nil, var shown = flash {
            // Shown before the first tick, on the recording's clock: it starts now on the wall clock.
            shown.until += time - now
            flash = shown
        }
        noticeClock = time
        if recordingEnd == nil { now = time }
        if let flash, flash.until <= time { self.flash = nil }
    }

    /// Records an action and returns the effect that sends it.
    mutating func send(_ command: InspectorCommand, label: String) -> [InspectorEffect] {
        guard !readOnly else {
            showFlash("\(readOnlyWhy): nothing can be sent", isError: true)
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
            lastEventSent = (draft, hostKey)
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
        guard let dialog = closed as? RespondDialog, case .respond(let args) = command else { return }
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
        overlay.refused("not sent (\(error)): Enter tries again")
        overlays.append(overlay)
    }

    public static let eventHistoryLimit = 50

    /// The host this inspector follows now, as `name.pid` (empty before its hello): what the
    /// event dialog's prefill belongs to.
    var hostKey: String {
        live.host.map { "\($0.name).\($0.pid)" } ?? ""
    }

    /// What the event dialog opens with: the last event fired in this run to this host, else
    /// nothing (the dialog then offers `host.ping`; ↑/↓ still recall every earlier event).
    var eventPrefill: EventDraft? {
        guard let last = lastEventSent, last.host == hostKey else { return nil }
        return last.draft
    }

    /// Takes the event history kept from an earlier run (the newest ``eventHistoryLimit``).
    public mutating func loadEventHistory(_ drafts: [EventDraft]) {
        eventHistory = Array(drafts.suffix(Self.eventHistoryLimit))
    }
}
