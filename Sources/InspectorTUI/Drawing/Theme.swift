import TerminalUI

/// The inspector's styles in one place. Colour always comes with a word or symbol, so the
/// screen reads the same with `NO_COLOR` (the curses backend drops colours then).
enum Theme {
    static let statusBar = Style(foreground: .black, background: .cyan)
    static let statusBarDisconnected = Style(foreground: .white, background: .red, bold: true)
    static let footer = Style(foreground: .black, background: .white)
    static let footerKey = Style(foreground: .black, background: .white, bold: true)
    static let paneTitle = Style(bold: true)
    static let paneTitleFocused = Style(foreground: .cyan, bold: true)
    static let border = Style(foreground: .brightBlack)
    static let borderFocused = Style(foreground: .cyan)
    static let selection = Style(reverse: true)
    static let dim = Style(dim: true)
    static let errorBanner = Style(foreground: .white, background: .red, bold: true)
    static let noErrorBanner = Style(foreground: .green)
    static let incoming = Style(foreground: .blue, bold: true)
    static let outgoing = Style(foreground: .green, bold: true)
    static let type = Style(foreground: .yellow)
    static let warning = Style(foreground: .yellow, bold: true)
    static let danger = Style(foreground: .red, bold: true)
    static let success = Style(foreground: .green)
    static let handMade = Style(foreground: .magenta, bold: true)
    static let marker = Style(foreground: .magenta, bold: true)
    /// A row the person marked (`m`): the ◆ after its time.
    static let rowMark = Style(foreground: .cyan, bold: true)
    static let highlight = Style(foreground: .black, background: .yellow)
    static let jsonKey = Style(foreground: .cyan)
    static let jsonString = Style(foreground: .green)
    static let jsonNumber = Style(foreground: .yellow)
    static let jsonLiteral = Style(foreground: .magenta)
    static let jsonPunctuation = Style(dim: true)
    static let flashInfo = Style(foreground: .black, background: .green)
    static let flashError = Style(foreground: .white, background: .red, bold: true)
    static let dialog = Style()
    static let dialogField = Style(underline: true)
    static let dialogFieldFocused = Style(reverse: true)
}
