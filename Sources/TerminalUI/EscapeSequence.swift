/// Reads the escape sequences a terminal sends for keys that its terminfo entry does not name.
///
/// A curses reader with keypad decoding turns only the sequences in the terminal's terminfo
/// entry into keys. Others arrive as the characters they are made of: under
/// `TERM=xterm-256color` in tmux, Home can arrive as `ESC [ 1 ~`, which would read as Esc (that
/// cancels a dialog) followed by `[`, `1` and `~` typed into a field. A backend hands the
/// characters that follow an Esc in the same burst of input to ``parse(afterEscape:)``, which
/// says how many belong to a sequence and which key it is, if any: a known form becomes its key
/// (Home, End, Delete, the arrows, …), an unknown one is consumed whole and ignored, and only
/// an Esc followed by anything else (nothing, another Esc, a key typed right after it) is the
/// Esc key.
///
/// ```swift
/// let rest: [Unicode.Scalar] = ["[", "1", "~", "x"]
/// EscapeSequence.parse(afterEscape: rest)   // (length: 3, key: .home): "x" is read next
/// EscapeSequence.parse(afterEscape: [])     // nil: a bare Esc
/// ```
public enum EscapeSequence {
    /// One sequence read after an Esc.
    public struct Match: Hashable, Sendable {
        /// How many of the scalars after the Esc belong to the sequence.
        public var length: Int
        /// The key it stands for, or `nil` for a sequence to ignore.
        public var key: Key?

        /// A sequence of `length` scalars after the Esc, standing for `key` (`nil`: ignored).
        public init(length: Int, key: Key?) {
            self.length = length
            self.key = key
        }
    }

    /// The sequence that `scalars` (what followed an Esc in the same burst of input) begin with,
    /// or `nil` when the Esc stands alone: nothing follows, or what follows is not `[` or `O` (a
    /// key typed right after Esc is read next, as itself).
    public static func parse(afterEscape scalars: some Collection<Unicode.Scalar>) -> Match? {
        guard let first = scalars.first else { return nil }
        let rest = scalars.dropFirst()
        switch first {
        case "[": return controlSequence(rest)
        case "O":
            // SS3: one character names the key (xterm's application cursor keys, F1 to F4).
            guard let final = rest.first else { return Match(length: 1, key: nil) }
            return Match(length: 2, key: ss3Keys[final])
        default:
            // Esc and then a key typed quickly (or sent in one write, as tmux's send-keys and
            // pastes do): the Esc key, and the key read next, as ncurses has always read it. An
            // Alt-key chord reads the same way; no binding tells the two apart.
            return nil
        }
    }

    /// A CSI sequence after `ESC [`: parameter bytes, intermediate bytes, a final byte.
    private static func controlSequence(_ scalars: some Collection<Unicode.Scalar>) -> Match {
        var parameters = ""
        var length = 1
        for scalar in scalars {
            length += 1
            switch scalar.value {
            case 0x30...0x3F, 0x20...0x2F: parameters.unicodeScalars.append(scalar)
            case 0x40...0x7E: return Match(length: length, key: csiKey(parameters: parameters, final: scalar))
            default:
                // Not part of a sequence: the sequence ends before it, unread.
                return Match(length: length - 1, key: nil)
            }
        }
        // Cut off: what arrived is consumed, never typed.
        return Match(length: length, key: nil)
    }

    /// The key of `ESC [ parameters final`, or `nil` for one that is not a plain key (a key with
    /// a modifier, a mouse or focus report, a reply to a query).
    private static func csiKey(parameters: String, final: Unicode.Scalar) -> Key? {
        if final == "~" { return tildeKeys[parameters] }
        guard parameters.isEmpty || parameters == "1" else { return nil }
        return csiFinalKeys[final]
    }

    /// `ESC [ n ~` keys (VT220, rxvt, the Linux console, tmux and screen).
    private static let tildeKeys: [String: Key] = [
        "1": .home, "7": .home, "4": .end, "8": .end, "2": .insert, "3": .delete, "5": .pageUp, "6": .pageDown,
        "11": .function(1), "12": .function(2), "13": .function(3), "14": .function(4), "15": .function(5),
        "17": .function(6), "18": .function(7), "19": .function(8), "20": .function(9), "21": .function(10),
        "23": .function(11), "24": .function(12),
    ]

    /// `ESC [ X` keys (ANSI cursor keys, xterm's Home and End, Shift-Tab).
    private static let csiFinalKeys: [Unicode.Scalar: Key] = [
        "A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end, "Z": .backTab,
    ]

    /// `ESC O X` keys (application cursor mode, keypad Enter, F1 to F4).
    private static let ss3Keys: [Unicode.Scalar: Key] = [
        "A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end, "M": .enter,
        "P": .function(1), "Q": .function(2), "R": .function(3), "S": .function(4),
    ]
}
