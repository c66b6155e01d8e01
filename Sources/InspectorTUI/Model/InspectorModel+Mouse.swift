import TerminalUI

/// The mouse, as k9s, lazygit and mitmproxy offer it: a click focuses the pane under the pointer
/// and selects the row clicked, a second click on the selected row (a double-click does the
/// same) opens it as Enter would, and the wheel moves through the pane under the pointer, or
/// through the open view.
///
/// What is under the pointer is found in the layout that is drawn (``MainLayout`` for the
/// panes, ``item(of:atRow:)`` for their rows, zoom included), so a click lands on what the
/// person sees. The mouse never sends anything to the host by itself: the most a click does is
/// what Enter on the row does (open the detail view, or a dialog whose answer still needs a key),
/// and over a view the wheel only scrolls it.
extension InspectorModel {
    /// How many rows one notch of the wheel moves: in the log, a pane's list, or a view.
    static let wheelRows = 3

    /// Handles a mouse event: over the main screen a click or the wheel, over a view the wheel.
    mutating func handleMouse(_ event: MouseEvent) -> [InspectorEffect] {
        // A prompt being typed keeps the keyboard's attention; a screen too small shows no panes.
        guard prompt == nil, !layout.isTooSmall else { return [] }
        if !overlays.isEmpty {
            scrollTopView(event.kind)
            return []
        }
        switch event.kind {
        case .press(.left):
            return click(at: event.position)
        case .scrollUp:
            wheel(by: -Self.wheelRows, at: event.position)
        case .scrollDown:
            wheel(by: Self.wheelRows, at: event.position)
        case .press, .release:
            break
        }
        return []
    }

    /// A left click on the main screen: focuses the pane under the pointer and selects the row
    /// clicked; on the row already selected in the focused pane, opens it as Enter does.
    private mutating func click(at point: Point) -> [InspectorEffect] {
        guard let pane = layout.pane(at: point) else { return [] }
        let wasFocused = focus == pane
        focus = pane
        guard let index = item(of: pane, atRow: point.y) else { return [] }
        if wasFocused, index == selectedIndex(in: pane) { return handle(.key(.enter)) }
        select(index, in: pane)
        return []
    }

    /// The wheel on the main screen: focuses the pane under the pointer (its selection shows
    /// only while it has the focus) and moves its selection `rows` rows.
    private mutating func wheel(by rows: Int, at point: Point) {
        guard let pane = layout.pane(at: point) else { return }
        focus = pane
        select(selectedIndex(in: pane) + rows, in: pane)
    }

    /// The selected item of `pane`, an index as ``item(of:atRow:)`` gives.
    private func selectedIndex(in pane: Pane) -> Int {
        switch pane {
        case .messages: cursor
        case .pending: pendingCursor
        case .slots: slotCursor
        }
    }

    /// Selects item `index` of `pane` (clamped to its items), as the keys that move do.
    private mutating func select(_ index: Int, in pane: Pane) {
        switch pane {
        case .messages: viewport.move(to: index)
        case .pending: pendingCursor = index
        case .slots: slotCursor = index
        }
        clampCursors()
    }

    /// The wheel over a view: the same as ↑ or ↓ pressed ``wheelRows`` times, in a view that
    /// does not take typed text (where ↑ ↓ can recall or change what is typed). Whatever the
    /// view would do beyond moving itself (close, send, open another view) is not done: the
    /// view is kept as it was.
    private mutating func scrollTopView(_ kind: MouseEvent.Kind) {
        let key: Key
        switch kind {
        case .scrollUp: key = .up
        case .scrollDown: key = .down
        case .press, .release: return
        }
        guard var view = overlays.last, !view.takesText else { return }
        let context = overlayContext
        for _ in 0..<Self.wheelRows {
            guard case .none = view.handle(key, context: context) else { return }
        }
        overlays[overlays.count - 1] = view
    }
}
