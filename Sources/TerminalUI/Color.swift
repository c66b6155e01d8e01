/// One colour of the small, portable palette every terminal understands.
///
/// The sixteen ANSI colours plus ``default`` (whatever the user's terminal theme
/// uses). Keeping to this palette means the inspector looks right on 8-colour
/// terminals, in light and dark themes, and under `NO_COLOR` (where the curses
/// backend drops colours entirely and keeps only attributes).
///
/// ```swift
/// let warning = Style(foreground: .yellow, bold: true)
/// ```
public enum Color: Hashable, Sendable, CaseIterable {
    /// The terminal's own foreground or background colour (respects the user's theme).
    case `default`
    /// ANSI colour 0.
    case black
    /// ANSI colour 1.
    case red
    /// ANSI colour 2.
    case green
    /// ANSI colour 3.
    case yellow
    /// ANSI colour 4.
    case blue
    /// ANSI colour 5.
    case magenta
    /// ANSI colour 6.
    case cyan
    /// ANSI colour 7 (light grey on most terminals).
    case white
    /// ANSI colour 8 (dark grey); falls back to ``black`` on 8-colour terminals.
    case brightBlack
    /// ANSI colour 9; falls back to ``red`` on 8-colour terminals.
    case brightRed
    /// ANSI colour 10; falls back to ``green`` on 8-colour terminals.
    case brightGreen
    /// ANSI colour 11; falls back to ``yellow`` on 8-colour terminals.
    case brightYellow
    /// ANSI colour 12; falls back to ``blue`` on 8-colour terminals.
    case brightBlue
    /// ANSI colour 13; falls back to ``magenta`` on 8-colour terminals.
    case brightMagenta
    /// ANSI colour 14; falls back to ``cyan`` on 8-colour terminals.
    case brightCyan
    /// ANSI colour 15 (white); falls back to ``white`` on 8-colour terminals.
    case brightWhite

    /// The ANSI colour number 0–15, or `nil` for ``default``. Backends map this to their own colour numbers.
    public var ansiIndex: Int? {
        switch self {
        case .default: nil
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .brightBlack: 8
        case .brightRed: 9
        case .brightGreen: 10
        case .brightYellow: 11
        case .brightBlue: 12
        case .brightMagenta: 13
        case .brightCyan: 14
        case .brightWhite: 15
        }
    }
}
