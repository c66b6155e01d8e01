import BridgeCore
import TerminalUI

/// How a row a fault rule changed is marked (docs/inspector-protocol.md 14.4): a tag in its log
/// row (`⚡ f1 errored BUSY`) and a sentence in the detail view. The rule's id and the detail come
/// from the host: both are sanitized here, so what is measured is what is drawn.
enum FaultMarkText {
    /// The tag in the Messages pane; `narrow` keeps only the rule (`⚡ f1`), so the action keeps its room.
    static func short(_ mark: FaultMark, narrow: Bool = false) -> String {
        let rule = TextWidth.truncate(Sanitizer.sanitize(mark.rule), to: 8)
        if narrow { return "⚡ \(rule)" }
        let detail = mark.detail.map { " " + TextWidth.truncate(Sanitizer.sanitize($0), to: 24) } ?? ""
        return "⚡ \(rule) \(mark.effect.rawValue)\(detail)"
    }

    /// The sentence in the detail view: which rule, and what it did to this message.
    static func sentence(_ mark: FaultMark) -> String {
        let rule = Sanitizer.sanitize(mark.rule)
        let detail = mark.detail.map { Sanitizer.sanitize($0) }
        let what: String
        switch mark.effect {
        case .delayed: what = "delayed\(detail.map { " by \($0)" } ?? "")"
        case .errored: what = "answered with the error \(detail ?? "") instead of by its handler"
        case .neverAnswered: what = "never answered: the journey's own timeout fires"
        case .dropped: what = "dropped: never routed or delivered"
        case .duplicated: what = "delivered twice"
        case .reordered: what = "delivered out of order, after the next message"
        }
        return "⚡ fault rule \(rule): \(what) (X lists the rules; f is:fault lists faulted rows)"
    }
}
