import BridgeCore

/// How a sent message that was held at a breakpoint is marked: a short tag in its log row
/// ("⏸ edited") and a sentence in the detail view.
enum HoldMarkText {
    /// The tag in the Messages pane.
    static func short(_ mark: HoldMark) -> String {
        switch mark.outcome {
        case .released: return "⏸ held"
        case .edited: return "✎ edited"
        case .answered: return "⏸ answered"
        case .dropped: return "✗ dropped"
        }
    }

    /// The sentence in the detail view.
    static func sentence(_ mark: HoldMark) -> String {
        switch mark.outcome {
        case .released: return "⏸ held at a breakpoint (\(mark.id)), then released as it was"
        case .edited: return "✎ held at a breakpoint (\(mark.id)) and edited by an inspector before release"
        case .answered: return "⏸ answers a request held at a breakpoint (\(mark.id)), by hand: its handler never ran"
        case .dropped: return "✗ held at a breakpoint (\(mark.id)) and dropped: never delivered"
        }
    }
}
