import CNcurses
import TerminalUI

/// Maps ncurses input codes to ``Key`` / ``MouseEvent`` values; pure, so it is unit-tested.
enum CursesKeys {
    /// The key for a `KEY_*` code returned by `wget_wch` with `KEY_CODE_YES`, or `nil` for codes the app never needs.
    static func key(forKeyCode code: Int32) -> Key? {
        switch code {
        case cn_KEY_UP(): return .up
        case cn_KEY_DOWN(): return .down
        case cn_KEY_LEFT(): return .left
        case cn_KEY_RIGHT(): return .right
        case cn_KEY_HOME(): return .home
        case cn_KEY_END(): return .end
        case cn_KEY_PPAGE(): return .pageUp
        case cn_KEY_NPAGE(): return .pageDown
        case cn_KEY_DC(): return .delete
        case cn_KEY_IC(): return .insert
        case cn_KEY_BACKSPACE(): return .backspace
        case cn_KEY_ENTER(): return .enter
        case cn_KEY_BTAB(): return .backTab
        case cn_KEY_F(1)...cn_KEY_F(12): return .function(Int(code - cn_KEY_F(0)))
        default: return nil
        }
    }

    /// The key for a character returned by `wget_wch` with `OK` (text, or a control character such as Ctrl-A).
    static func key(forCharacter value: UInt32) -> Key? {
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return Key.fromTerminalCharacter(scalar)
    }

    /// The mouse event for an ncurses button-state mask at a position, or `nil` for masks the app ignores (motion).
    static func mouseEvent(state: mmask_t, x: Int32, y: Int32) -> MouseEvent? {
        let position = Point(x: Int(x), y: Int(y))
        func has(_ mask: mmask_t) -> Bool { mask != 0 && state & mask != 0 }
        let kind: MouseEvent.Kind
        if has(cn_BUTTON4_PRESSED()) {
            kind = .scrollUp
        } else if has(cn_BUTTON5_PRESSED()) {
            kind = .scrollDown
        } else if has(cn_BUTTON1_PRESSED() | cn_BUTTON1_CLICKED()) {
            kind = .press(.left)
        } else if has(cn_BUTTON1_RELEASED()) {
            kind = .release(.left)
        } else if has(cn_BUTTON2_PRESSED() | cn_BUTTON2_CLICKED()) {
            kind = .press(.middle)
        } else if has(cn_BUTTON2_RELEASED()) {
            kind = .release(.middle)
        } else if has(cn_BUTTON3_PRESSED() | cn_BUTTON3_CLICKED()) {
            kind = .press(.right)
        } else if has(cn_BUTTON3_RELEASED()) {
            kind = .release(.right)
        } else {
            return nil
        }
        return MouseEvent(kind: kind, position: position)
    }
}
