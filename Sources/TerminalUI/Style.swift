/// How a cell looks: colours from the small ``Color`` palette plus a few attributes.
///
/// A value type with defaults for everything, so a style reads like what it means:
///
/// ```swift
/// let header = Style(foreground: .cyan, bold: true)
/// var selected = Style.plain
/// selected.reverse = true
/// ```
///
/// Backends that cannot show colour (for example under `NO_COLOR`) keep the attributes,
/// so never rely on colour alone to carry meaning: pair it with bold/reverse or text.
public struct Style: Hashable, Sendable {
    /// Text colour; ``Color/default`` uses the terminal's theme.
    public var foreground: Color
    /// Cell background; ``Color/default`` uses the terminal's theme.
    public var background: Color
    /// Bold (on some terminals also brighter) text.
    public var bold: Bool
    /// Faint text. ``Buffer`` uses it to mark escapes produced by ``Sanitizer``.
    public var dim: Bool
    /// Swaps foreground and background: the usual way to show a selection or cursor.
    public var reverse: Bool
    /// Underlined text.
    public var underline: Bool

    /// Creates a style; every parameter defaults to "as the terminal would draw it".
    public init(
        foreground: Color = .default,
        background: Color = .default,
        bold: Bool = false,
        dim: Bool = false,
        reverse: Bool = false,
        underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's default look: default colours, no attributes. The style of a blank cell.
    public static let plain = Style()

    /// This style with ``dim`` switched on; what ``Buffer/write(_:at:style:maxWidth:)`` uses for escapes.
    public var dimmed: Style {
        var copy = self
        copy.dim = true
        return copy
    }

    /// This style with ``reverse`` toggled; handy for a selected row or a drawn cursor.
    public var reversed: Style {
        var copy = self
        copy.reverse.toggle()
        return copy
    }
}
