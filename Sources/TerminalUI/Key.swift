/// A key the user pressed, independent of any terminal library.
///
/// Application logic (`update(state, event)`) matches on these and never sees curses codes,
/// so it can be tested by feeding keys directly.
///
/// ```swift
/// switch key {
/// case .char("q"), .ctrl("c"): quit()
/// case .char("/"): state.focus = .filter
/// case .up, .char("k"): state.selection -= 1
/// case .function(1): state.showHelp = true
/// default: break
/// }
/// ```
///
/// Letters are reported as typed: Shift+A is `.char("A")`. Ctrl+letter is ``ctrl(_:)`` with a
/// lowercase letter, except the ones terminals cannot tell apart from other keys:
/// Ctrl+I is ``tab``, Ctrl+M and Ctrl+J are ``enter``, Ctrl+H is ``backspace``, Ctrl+[ is ``escape``.
public enum Key: Hashable, Sendable, CustomStringConvertible {
    /// A printable character (never a control character).
    case char(Character)
    /// Ctrl plus a letter, given in lowercase: `.ctrl("c")`.
    case ctrl(Character)
    /// Return / Enter (also the keypad Enter).
    case enter
    /// Escape (reported after a short delay so escape sequences can be told apart).
    case escape
    /// Tab.
    case tab
    /// Shift+Tab.
    case backTab
    /// Backspace (whichever code the terminal sends for it).
    case backspace
    /// Forward delete.
    case delete
    /// Insert.
    case insert
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Function key F1–F12: `.function(1)` is F1.
    case function(Int)

    /// A short human-readable name for key-hint bars and help screens: `"q"`, `"Ctrl-C"`, `"Enter"`, `"F1"`, `"PgUp"`, `"Space"`.
    public var description: String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): Sanitizer.sanitize(String(c))
        case .ctrl(let c): "Ctrl-" + Sanitizer.sanitize(String(c)).uppercased()
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .insert: "Ins"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .function(let n): "F\(n)"
        }
    }

    /// Maps a raw character from a terminal (as a curses `get_wch` or a byte reader delivers it)
    /// to a key: control characters become ``enter``, ``tab``, ``backspace``, ``escape`` or
    /// ``ctrl(_:)``; DEL (0x7F) is ``backspace``; other unassigned controls give `nil`.
    ///
    /// Backends use this so every one of them agrees on what Ctrl+H or DEL mean.
    public static func fromTerminalCharacter(_ scalar: Unicode.Scalar) -> Key? {
        switch scalar.value {
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x08, 0x7F: return .backspace
        case 0x1B: return .escape
        case 0x01...0x1A:
            return .ctrl(Character(Unicode.Scalar(UInt8(scalar.value) + 0x60)))
        case 0x00...0x1F, 0x80...0x9F:
            return nil
        default:
            return Sanitizer.needsEscape(scalar) ? nil : .char(Character(scalar))
        }
    }
}
