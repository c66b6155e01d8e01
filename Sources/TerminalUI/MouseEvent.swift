/// A mouse action at a cell, for backends that enable mouse reporting (it is opt-in,
/// because capturing the mouse disables the terminal's own text selection).
///
/// ```swift
/// case .mouse(let m) where m.kind == .scrollDown: state.scroll(by: 3)
/// case .mouse(let m) where m.kind == .press(.left) && listRect.contains(m.position): state.select(row: m.position.y - listRect.y)
/// ```
public struct MouseEvent: Hashable, Sendable {
    /// Which physical button.
    public enum Button: Hashable, Sendable {
        /// The primary (usually left) button.
        case left
        /// The middle button or wheel click.
        case middle
        /// The secondary (usually right) button.
        case right
    }

    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// A button went down (or was clicked: terminals often report only the click).
        case press(Button)
        /// A button went up.
        case release(Button)
        /// Wheel turned up (away from the user).
        case scrollUp
        /// Wheel turned down (towards the user).
        case scrollDown
    }

    /// What happened.
    public var kind: Kind
    /// The cell under the pointer, in screen coordinates (compare with your layout's ``Rect``s).
    public var position: Point

    /// Creates a mouse event (backends do; tests may too).
    public init(kind: Kind, position: Point) {
        self.kind = kind
        self.position = position
    }
}
