import TerminalUI

/// Which item each row of a pane shows: the one mapping from screen rows to log rows, pending
/// requests and slots. The renderer draws by it and the mouse finds what was clicked by it, so a
/// click always lands on the item drawn under the pointer (as ``MainLayout`` is the one answer
/// for where the panes are).
extension InspectorModel {
    /// The first pending request shown in a Pending pane `rows` high: from where it was
    /// (``pendingTop``), the list scrolls the least that keeps the selected request in view,
    /// and never past its last request. A pane with no rows (zoomed away) keeps its place.
    func firstPendingShown(rows: Int) -> Int {
        guard rows > 0 else { return pendingTop }
        let first = max(min(pendingTop, pendingCursor), pendingCursor - rows + 1)
        return min(max(0, first), max(0, live.pending.count - rows))
    }

    /// How many lines each slot takes in a Slots pane `rows` high inside: two (its state, then
    /// its flags) when every slot fits so, else one.
    func linesPerSlot(rows: Int) -> Int {
        rows >= 2 * live.slots.count ? 2 : 1
    }

    /// The item `pane` draws on screen row `y`: an index into ``visible`` (Messages),
    /// `live.pending` (Pending) or `live.slots` (Slots); `nil` for its border, its title, or a
    /// row below its last item.
    func item(of pane: Pane, atRow y: Int) -> Int? {
        let inner = layout.rect(of: pane).inset(1)
        guard !inner.isEmpty, y >= inner.y, y < inner.maxY else { return nil }
        let row = y - inner.y
        switch pane {
        case .messages:
            let index = scroll + row
            return index < visible.count ? index : nil
        case .pending:
            let index = firstPendingShown(rows: inner.height) + row
            return index < live.pending.count ? index : nil
        case .slots:
            let index = row / linesPerSlot(rows: inner.height)
            return index < live.slots.count ? index : nil
        }
    }
}
