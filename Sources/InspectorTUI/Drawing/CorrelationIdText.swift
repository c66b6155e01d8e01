import TerminalUI

/// How a correlation id is shown where it has less room than it needs: the one rule for every
/// pane and view (the Messages and Pending panes, the Slots pane's `held by`, the held messages
/// view).
///
/// Ids of one journey share their start and differ at their end: `web-4fd7-90`, `web-4fd7-91`
/// (a run token and a counter), `inspector-<uuid>`, `sim-event-<uuid>`. So an id that does not
/// fit keeps a few characters of its start, then `…`, then as much of its end as fits:
/// `inspector-3f0c…` would read the same for every injected request, `ins…9a41c07e` does not.
/// An id is never cut without the `…`, so a shortened id cannot pass for another real one.
///
/// ```swift
/// CorrelationIdText.shortened("web-8ed6-1234", to: 12)    // "web…ed6-1234"
/// CorrelationIdText.shortened("web-4fd7-91", to: 12)      // "web-4fd7-91"
/// CorrelationIdText.shortened("web-4fd7-91", to: 10)      // "we…4fd7-91"
/// ```
enum CorrelationIdText {
    /// The id column of the Messages and Pending panes at their narrowest.
    static let minimumColumn = 12
    /// The widest id column: a UUID (36 characters) whole.
    static let maximumColumn = 36
    /// Panes this wide and wider give ids a wider column.
    static let wideningFrom = 100

    /// The id column's width in a pane `width` columns wide: ``minimumColumn`` up to
    /// ``wideningFrom`` columns, then one more for every 2 columns, up to ``maximumColumn``
    /// (23 in a 122-column pane, 36 from 148: the Messages pane of a 200-column terminal).
    static func columnWidth(forPaneWidth width: Int) -> Int {
        min(maximumColumn, max(minimumColumn, minimumColumn + (width - wideningFrom) / 2))
    }

    /// `id`, sanitized, in at most `width` columns: whole when it fits; otherwise its first
    /// characters (up to 4, a quarter of the room), `…`, and the rest of the room from its end.
    /// In fewer than 5 columns only `…` and the end.
    static func shortened(_ id: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        let text = Sanitizer.sanitize(id)
        if TextWidth.width(of: text) <= width { return text }
        let headRoom = width >= 5 ? min(4, width / 4) : 0
        // Whole characters only, by columns: the start as it fits, the end the same way read backwards.
        let head = TextWidth.truncate(text, to: headRoom, ellipsis: "")
        let tail = TextWidth.truncate(String(text.reversed()), to: width - 1 - TextWidth.width(of: head), ellipsis: "")
        return head + "…" + String(tail.reversed())
    }
}
