/// Something the user did at the terminal: a key, a resize, or (when enabled) a mouse action.
///
/// The curses backend's `readKeys()` returns these, and the app feeds them to its pure
/// `update` function alongside its own events (server messages, ticks):
///
/// ```swift
/// for event in screen.readKeys() {
///     switch event {
///     case .key(.char("q")): running = false
///     case .key(let key): state.handle(key)
///     case .resize(let size): state.viewport = size
///     case .mouse(let mouse): state.click(mouse)
///     }
/// }
/// ```
public enum KeyEvent: Hashable, Sendable {
    /// A key press.
    case key(Key)
    /// The terminal now has this size; the next frame should be rendered for it.
    case resize(Size)
    /// A mouse action (only when the backend was asked to report the mouse).
    case mouse(MouseEvent)
}
