import TerminalUI

/// One input `wget_wch` returned: a `KEY_*` code, or a character; or, once escape sequences
/// are read (``decodingEscapeSequences(_:)``), the key a sequence stands for.
enum CursesInput: Hashable, Sendable {
    /// A `KEY_*` code (`KEY_CODE_YES`).
    case code(Int32)
    /// A character (`OK`): text or a control character.
    case character(UInt32)
    /// The key of an escape sequence ncurses did not decode.
    case key(Key)

    /// `inputs` with each escape sequence ncurses passed on as characters (its terminfo entry
    /// does not name it) read as one key, or dropped when it is not a key the inspector knows
    /// (``EscapeSequence``): never an Esc followed by the sequence's characters typed as text.
    /// An Esc with nothing after it in the burst stays the Esc key.
    static func decodingEscapeSequences(_ inputs: [CursesInput]) -> [CursesInput] {
        var result: [CursesInput] = []
        var index = 0
        while index < inputs.count {
            defer { index += 1 }
            guard inputs[index] == .character(0x1B) else {
                result.append(inputs[index])
                continue
            }
            // The characters that follow, up to the first key code.
            let following = inputs[(index + 1)...].prefix { if case .character = $0 { true } else { false } }.compactMap { input -> Unicode.Scalar? in
                guard case .character(let value) = input else { return nil }
                return Unicode.Scalar(value) ?? "\u{FFFD}"
            }
            guard let match = EscapeSequence.parse(afterEscape: following) else {
                result.append(inputs[index])
                continue
            }
            if let key = match.key { result.append(.key(key)) }
            index += match.length
        }
        return result
    }
}
