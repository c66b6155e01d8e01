import BridgeCore

/// One condition of the filter language (see ``FilterSyntax`` for how each is written).
public enum FilterPredicate: Sendable, Equatable {
    /// `type:`: the message type.
    case type(MessageType)
    /// `dir:`: received from (`in`) or sent to (`out`) the journey.
    case direction(TrafficRecord.Direction)
    /// `action:`: the action, matched as an ``ActionPattern`` (`*` matches anything).
    case action(pattern: String)
    /// `status:`: a response's status.
    case status(BridgeResponseStatus)
    /// `code:`: a response's error code, uppercased (matched in any case).
    case code(String)
    /// `id:`: part of the correlation id, lowercased (matched in any case).
    case id(String)
    /// `is:pending`: a request still waiting in pendingRequests.
    case pending
    /// `is:error`: an error response, malformed input or a failed delivery.
    case error
    /// `is:malformed`: input from the journey that failed to decode.
    case malformed
    /// `is:manual`: a message an inspector made.
    case manual
    /// `is:rule`: a response a reply rule made.
    case rule
    /// `is:lint`: a row the protocol linter marked (it breaks a rule of GBGBridge's
    /// troubleshooting page) that counts against the app: not one an inspector made.
    case lint
    /// `is:marked`: a row the person marked in the inspector (`m` in the TUI). Marks are the
    /// inspector's, not the host's: the log's filter reads them from the row, a breakpoint
    /// refuses the term.
    case marked
    /// `is:fault`: a message a fault rule changed (delayed, answered with an error, never
    /// answered, dropped, duplicated or reordered). The mark is made as the host handles the
    /// message, so a breakpoint or fault rule refuses the term.
    case fault
    /// `body:`: the bytes of the text anywhere in the message's JSON.
    case body(String)
    /// Plain text, lowercased: in the action, correlation id or error code (any case).
    case text(String)
}
