import InspectorProtocol

extension LiveState {
    /// Whether an inspector, not the app or the journey, caused the `lastError` value `error`:
    /// its cause (``WireError/cause``, the record the host was handling when it set the error)
    /// is a row an inspector made (an injected message or injected text, an answer, an event: ✎)
    /// or one a fault rule changed (⚡), or the host's answer to such a request (a `BUSY` for an
    /// injected capture request). Such an error is still shown, marked as the inspector's, but the doctor does not
    /// hold it against the app. `false` when the cause is unknown or no longer in the log.
    public func isInspectorMade(_ error: WireError) -> Bool {
        guard let seq = error.cause, let index = logIndex(ofSeq: seq), log.indices.contains(index) else { return false }
        let row = log[index]
        if row.isInspectorCaused { return true }
        guard row.kind == .message, row.type == .response, row.direction == .sent,
            let request = row.partner, log.indices.contains(request)
        else { return false }
        return log[request].isInspectorCaused
    }
}
