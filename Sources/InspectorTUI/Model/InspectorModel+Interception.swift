import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol
import TerminalUI

extension InspectorModel {
    /// Closes the dialog that sent `label` and stayed open for the answer when the host did it,
    /// or shows the host's refusal in it, keeping what was typed.
    mutating func settleStayingDialog(label: String, result: Result<JSONValue, InspectorError>) {
        guard let index = overlays.lastIndex(where: { $0.awaitingLabel == label }) else { return }
        switch result {
        case .success: overlays.remove(at: index)
        case .failure(let error): overlays[index].refused(error.message)
        }
    }

    /// Asks before replaying the selected log row, a message the journey sent: with a new
    /// correlation id (`y`), or the same one (`s`); `e` edits the message first
    /// (``ReplayEditDialog``, prefilled with the replay under its new id).
    mutating func openReplay(suffix: String = BridgeMessage.randomReplaySuffix()) {
        guard supports(.inject) else { return }
        guard let entry = selectedEntry, entry.kind == .message else {
            showFlash("select a message the journey sent (an IN row) to replay it", isError: true)
            return
        }
        guard entry.direction == .received, entry.type == .request || entry.type == .event else {
            showFlash("only what the journey sent (IN requests and events) can be replayed; i injects any message", isError: true)
            return
        }
        guard case .success(let logged) = BridgeMessageCodec().decode(entry.json) else {
            showFlash("this row's message is not kept whole (too large): it cannot be replayed", isError: true)
            return
        }
        let time = Date(timeIntervalSince1970: now / 1000)
        let fresh = logged.replayed(now: time, suffix: suffix)
        let same = logged.replayed(keepingId: true, now: time)
        let what = "\(entry.type?.rawValue ?? "message") \(entry.summary)"
        var dialog = ConfirmDialog(
            question: "Replay \(what) \(entry.correlationId) as \(fresh.correlationId)? y: new id, s: same id, e: edit the message first",
            command: .inject(.init(message: fresh)), label: "replay \(what) as \(fresh.correlationId)")
        dialog.alternative = .init(key: "s", hint: "same id", command: .inject(.init(message: same)), label: "replay \(what) as \(entry.correlationId)")
        dialog.editFirst = ReplayEditDialog(replaying: fresh, original: entry.correlationId)
        overlays.append(dialog)
    }
}
