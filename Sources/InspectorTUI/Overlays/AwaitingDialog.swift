/// A dialog that sends its command and stays open for the host's answer
/// (``OverlayAction/sendAndStay(_:label:)``): the answer closes it, a refusal shows in it with
/// what was typed kept, so the person can correct it and try again.
///
/// A dialog conforms by keeping the two fields; ``OverlayView/awaitingLabel`` and
/// ``OverlayView/refused(_:)`` come from them.
protocol AwaitingDialog: OverlayView {
    /// The label of the command sent and not yet answered.
    var awaiting: String? { get set }
    /// The host's refusal of the last try, shown until the next one.
    var sendError: String? { get set }
}

extension AwaitingDialog {
    var awaitingLabel: String? { awaiting }

    mutating func refused(_ message: String) {
        awaiting = nil
        sendError = message
    }
}
