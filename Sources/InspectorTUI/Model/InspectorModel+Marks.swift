import InspectorClient

/// Marks on rows (mitmproxy's `m`): the person's own flags on messages worth coming back to.
/// `m` marks or unmarks the selected row, `M` jumps to the next marked row, `is:marked` filters
/// them, and `w` keeps them in the recording it saves. They are the inspector's
/// (``LogEntry/marked``): kept on the rows across reconnects, never sent to the host.
extension InspectorModel {
    /// `m`: marks the selected row of the Messages pane, or unmarks it.
    mutating func toggleMark() -> [InspectorEffect] {
        guard focus == .messages, let index = visible[safe: cursor] else {
            showFlash("nothing to mark: select a message in the Messages pane", isError: true)
            return []
        }
        let marked = !(live.log[safe: index]?.marked ?? false)
        guard live.setMarked(marked, at: index) != nil else {
            showFlash("only messages can be marked, not the markers of an interruption", isError: true)
            return []
        }
        // A filter on is:marked shows the change at once.
        if filter.expression?.uses(.marked) == true { refreshVisibleKeepingSelection() }
        let count = live.markedCount
        showFlash(
            (marked ? "marked" : "unmarked") + " (\(count) marked: M next, f is:marked lists them, w saves them)", isError: false, logged: false)
        return []
    }

    /// `M`: selects the next marked row shown after the selection, round to the first.
    mutating func jumpToNextMark() -> [InspectorEffect] {
        guard live.markedCount > 0 else {
            showFlash("no marked rows: m marks the selected one", isError: true)
            return []
        }
        let count = visible.count
        focus = .messages
        for step in stride(from: 1, through: count, by: 1) {
            let row = (cursor + step) % count
            if live.log[visible[row]].marked {
                viewport.move(to: row)
                return []
            }
        }
        showFlash("the \(live.markedCount) marked row\(live.markedCount == 1 ? " is" : "s are") not shown: the filter hides them (Esc clears it)", isError: true)
        return []
    }
}
