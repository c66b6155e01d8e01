import CNcurses
import TerminalUI
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal, driven by ncurses: draws ``Buffer`` frames and reads keys.
///
/// The only type that talks to curses. Application code renders a ``Buffer`` (pure, testable)
/// and hands it to ``draw(_:cursor:)``, which sends only the cells that changed since the last
/// frame; input comes back from ``readKeys()`` as ``KeyEvent``s. Pair it with ``EventLoop`` to
/// wait for keys and sockets together.
///
/// ```swift
/// let screen = try CursesScreen()
/// defer { screen.end() }
/// let loop = EventLoop(screen: screen)
/// var state = AppState()
/// while !state.quit {
///     screen.draw(render(state, size: screen.size))
///     for event in loop.next().events { state.update(event) }
/// }
/// ```
///
/// **Threading.** ncurses keeps global state and Debian builds it non-reentrant: create, use and
/// end a screen on one thread (the UI thread), and only one screen at a time. The type is
/// deliberately not `Sendable`, so the compiler keeps it where it was made; other threads
/// wake the UI thread by writing to a descriptor the ``EventLoop`` watches (SocketSupport's `WakePipe`).
///
/// **What it sets up.** The user's locale (falling back to `C.UTF-8` when that is not UTF-8),
/// raw mode (Ctrl-C, Ctrl-Z, Ctrl-S arrive as keys), no echo, keypad decoding, non-blocking
/// reads, a 25 ms Esc delay, a hidden cursor, and colours with the terminal's default
/// background, unless `NO_COLOR` is set (then only bold/dim/reverse/underline are used).
///
/// **Restoring the terminal.** ``end()`` (also run by `deinit`) restores it exactly once.
/// If the process crashes or exits first, a signal-safe fallback resets the terminal (see the
/// `restoreOnCrash` option).
public final class CursesScreen {
    /// Start-up choices; the defaults suit an interactive full-screen tool.
    public struct Options: Sendable {
        /// Report mouse clicks and the wheel as ``KeyEvent/mouse(_:)``. Off by default because
        /// capturing the mouse stops the terminal's own text selection (Shift usually overrides).
        public var mouse: Bool
        /// `nil` (default): colours unless `NO_COLOR` is set to a non-empty value or the terminal
        /// has none. `false`: attributes only. `true`: colours whenever the terminal has them.
        public var colors: Bool?
        /// Milliseconds ncurses waits after Esc for the rest of an escape sequence.
        public var escapeDelay: Int
        /// Install crash-signal and exit handlers that put the terminal back if ``end()`` never runs.
        public var restoreOnCrash: Bool

        /// Creates options; see each property for the defaults.
        public init(mouse: Bool = false, colors: Bool? = nil, escapeDelay: Int = 25, restoreOnCrash: Bool = true) {
            self.mouse = mouse
            self.colors = colors
            self.escapeDelay = escapeDelay
            self.restoreOnCrash = restoreOnCrash
        }
    }

    /// The terminal's current size. Updated by ``readKeys()``, which also reports changes as ``KeyEvent/resize(_:)``.
    public private(set) var size: Size
    /// The descriptor keys arrive on (stdin, or `/dev/tty` when stdin/stdout are redirected). ``EventLoop`` polls it.
    public let inputDescriptor: Int32
    /// Whether colours are in use (false under `NO_COLOR`, on monochrome terminals, or when disabled in ``Options``).
    public let usesColor: Bool

    private let screen: OpaquePointer
    private let outputDescriptor: Int32
    private let outputFile: UnsafeMutablePointer<FILE>
    private let ownedFiles: [UnsafeMutablePointer<FILE>]
    private let mouseEnabled: Bool
    private let colorCount: Int
    private let defaultColors: Bool
    private var pairs: [PairKey: Int16] = [:]
    private var nextPair: Int16 = 1
    private var previous: Buffer?
    private var needsClear = false
    private var cursorVisible: Bool?
    private var ended = false
    /// Cells sent to curses by the last ``draw(_:cursor:)`` (for tests of the diffing).
    private(set) var lastDrawnCellCount = 0

    private nonisolated(unsafe) static var active = false

    /// Starts curses on the user's terminal: stdin/stdout when both are terminals, otherwise `/dev/tty`.
    ///
    /// - Throws: ``CursesError/notATerminal`` when there is no terminal at all,
    ///   ``CursesError/alreadyActive`` while another screen runs, ``CursesError/startFailed(_:)``
    ///   when `$TERM` is unknown.
    public convenience init(options: Options = Options()) throws {
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, let input = cn_stdin(), let output = cn_stdout() {
            try self.init(
                terminalType: nil, input: input, output: output, owned: [],
                inputDescriptor: STDIN_FILENO, outputDescriptor: STDOUT_FILENO,
                options: options, headlessSize: nil
            )
            return
        }
        guard let output = fopen("/dev/tty", "w") else { throw CursesError.notATerminal }
        guard let input = fopen("/dev/tty", "r") else {
            fclose(output)
            throw CursesError.notATerminal
        }
        do {
            try self.init(
                terminalType: nil, input: input, output: output, owned: [input, output],
                inputDescriptor: fileno(input), outputDescriptor: fileno(output),
                options: options, headlessSize: nil
            )
        } catch {
            fclose(input)
            fclose(output)
            throw error
        }
    }

    /// Starts curses without a terminal, for tests: output goes to `/dev/null`, the screen has
    /// exactly `size`, and keys are read from `inputDescriptor` (a pipe the test writes escape
    /// sequences into; it is duplicated, the caller keeps ownership) or from `/dev/null`.
    ///
    /// What was drawn can be read back with ``screenLines()``. No crash handlers are installed.
    ///
    /// ```swift
    /// let screen = try CursesScreen(headlessSize: Size(width: 20, height: 5))
    /// defer { screen.end() }
    /// screen.draw(buffer)
    /// #expect(screen.screenLines() == buffer.lines)
    /// ```
    public convenience init(
        headlessSize size: Size,
        terminalType: String = "xterm-256color",
        inputDescriptor: Int32? = nil,
        options: Options = Options(restoreOnCrash: false)
    ) throws {
        guard let output = fopen("/dev/null", "w") else { throw CursesError.startFailed("cannot open /dev/null") }
        let input: UnsafeMutablePointer<FILE>?
        if let inputDescriptor {
            let copy = dup(inputDescriptor)
            input = copy >= 0 ? fdopen(copy, "r") : nil
            if input == nil, copy >= 0 { close(copy) }
        } else {
            input = fopen("/dev/null", "r")
        }
        guard let input else {
            fclose(output)
            throw CursesError.startFailed("cannot open the input")
        }
        var headlessOptions = options
        headlessOptions.restoreOnCrash = false
        do {
            try self.init(
                terminalType: terminalType, input: input, output: output, owned: [input, output],
                inputDescriptor: fileno(input), outputDescriptor: fileno(output),
                options: headlessOptions, headlessSize: size
            )
        } catch {
            fclose(input)
            fclose(output)
            throw error
        }
    }

    private init(
        terminalType: String?,
        input: UnsafeMutablePointer<FILE>,
        output: UnsafeMutablePointer<FILE>,
        owned: [UnsafeMutablePointer<FILE>],
        inputDescriptor: Int32,
        outputDescriptor: Int32,
        options: Options,
        headlessSize: Size?
    ) throws {
        guard !Self.active else { throw CursesError.alreadyActive }
        Self.setUTF8Locale()

        var savedModes = termios()
        let hasModes = tcgetattr(outputDescriptor, &savedModes) == 0

        let created: OpaquePointer? = if let terminalType {
            terminalType.withCString { newterm($0, output, input) }
        } else {
            newterm(nil, output, input)
        }
        guard let created else {
            let term = terminalType ?? (getenv("TERM").map { String(cString: $0) } ?? "")
            throw CursesError.startFailed("unknown or unusable terminal type '\(term)'")
        }
        Self.active = true
        screen = created
        set_term(created)
        self.inputDescriptor = inputDescriptor
        self.outputDescriptor = outputDescriptor
        outputFile = output
        ownedFiles = owned

        let window = cn_stdscr()
        raw()
        noecho()
        nonl()
        intrflush(window, false)
        keypad(window, true)
        nodelay(window, true)
        set_escdelay(Int32(clamping: options.escapeDelay))

        let colorsWanted = options.colors ?? Self.environmentAllowsColor()
        if colorsWanted, has_colors() {
            start_color()
            defaultColors = use_default_colors() == OK
            colorCount = Int(cn_colors())
            usesColor = true
        } else {
            defaultColors = false
            colorCount = 0
            usesColor = false
        }

        mouseEnabled = options.mouse
        if options.mouse {
            mousemask(cn_ALL_MOUSE_EVENTS(), nil)
            mouseinterval(0)
        }

        if let headlessSize {
            resizeterm(Int32(clamping: headlessSize.height), Int32(clamping: headlessSize.width))
        }
        size = Size(width: Int(cn_cols()), height: Int(cn_lines()))

        if options.restoreOnCrash {
            TerminalRestorer.install(
                descriptor: outputDescriptor,
                modes: hasModes ? savedModes : nil,
                resetSequence: Self.resetSequence(mouse: options.mouse)
            )
        }
        setCursor(visible: false)
    }

    deinit {
        end()
    }

    /// Writes `bytes` to the terminal as they are, after what curses has drawn: for a sequence
    /// that changes nothing on the screen, such as OSC 52 (``ClipboardSequence``). Never pass
    /// untrusted text: the bytes reach the terminal unfiltered. Returns `false` when the
    /// terminal did not take them all.
    @discardableResult
    public func writeThrough(_ bytes: [UInt8]) -> Bool {
        guard !ended else { return false }
        fflush(outputFile)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return write(outputDescriptor, base + written, raw.count - written)
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }

    /// Restores the terminal (leaves the alternate screen, restores modes) and releases curses.
    ///
    /// Safe to call more than once; only the first call does anything. After it the screen must
    /// not be used again (``draw(_:cursor:)`` and ``readKeys()`` become no-ops).
    public func end() {
        guard !ended else { return }
        ended = true
        set_term(screen)
        if mouseEnabled { mousemask(0, nil) }
        curs_set(1)
        endwin()
        TerminalRestorer.uninstall()
        delscreen(screen)
        for file in ownedFiles { fclose(file) }
        Self.active = false
    }

    /// Draws a frame: only cells that differ from the previous frame are sent to curses, then
    /// the terminal is updated in one go.
    ///
    /// The buffer should have the screen's ``size``; cells beyond the screen are ignored and
    /// screen cells beyond the buffer are left blank. Pass `cursor` to show the terminal cursor
    /// there (e.g. from ``TextInput/draw(into:in:style:focused:placeholder:)``); by default it is hidden.
    public func draw(_ buffer: Buffer, cursor: Point? = nil) {
        guard !ended else { return }
        let window = cn_stdscr()
        let full = previous == nil || previous?.size != buffer.size
        if full { werase(window) }
        if needsClear {
            clearok(window, true)
            needsClear = false
        }
        var drawn = 0
        let rows = min(buffer.height, size.height)
        let columns = min(buffer.width, size.width)
        for y in 0..<rows {
            for x in 0..<columns {
                let point = Point(x: x, y: y)
                guard let cell = buffer.cell(at: point), !cell.isContinuation else { continue }
                if !full, previous?.cell(at: point) == cell { continue }
                put(cell, x: x, y: y, window: window, columns: columns)
                drawn += 1
            }
        }
        lastDrawnCellCount = drawn
        previous = buffer
        if let cursor, cursor.x >= 0, cursor.x < size.width, cursor.y >= 0, cursor.y < size.height {
            setCursor(visible: true)
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else {
            setCursor(visible: false)
        }
        wnoutrefresh(window)
        doupdate()
    }

    /// Forgets the previous frame so the next ``draw(_:cursor:)`` repaints the whole terminal
    /// (bind it to Ctrl-L, or call it after something else wrote to the terminal).
    public func invalidate() {
        previous = nil
        needsClear = true
    }

    /// Returns every pending input event without waiting: drains ncurses' buffer until it is empty.
    ///
    /// Call it after each wake-up of the ``EventLoop`` (which does it for you in `next()`),
    /// including timeouts: it also compares the terminal's real size with the one curses knows,
    /// so a resize whose signal was missed is still reported as ``KeyEvent/resize(_:)``.
    public func readKeys() -> [KeyEvent] {
        guard !ended else { return [] }
        var events: [KeyEvent] = []
        checkSize(into: &events)
        let window = cn_stdscr()
        // Read the whole burst first: an escape sequence terminfo does not name arrives as Esc
        // and its characters, which are read together (``EscapeSequence``).
        var inputs: [CursesInput] = []
        for _ in 0..<4096 {
            var value: wint_t = 0
            let result = wget_wch(window, &value)
            if result == ERR { break }
            inputs.append(result == cn_KEY_CODE_YES() ? .code(Int32(truncatingIfNeeded: value)) : .character(UInt32(truncatingIfNeeded: value)))
        }
        for input in CursesInput.decodingEscapeSequences(inputs) {
            switch input {
            case .key(let key):
                events.append(.key(key))
            case .code(let code):
                if code == cn_KEY_RESIZE() {
                    needsClear = true
                    previous = nil
                    checkSize(into: &events)
                } else if code == cn_KEY_MOUSE() {
                    var event = MEVENT()
                    if getmouse(&event) == OK,
                       let mouse = CursesKeys.mouseEvent(state: event.bstate, x: event.x, y: event.y) {
                        events.append(.mouse(mouse))
                    }
                } else if let key = CursesKeys.key(forKeyCode: code) {
                    events.append(.key(key))
                }
            case .character(let value):
                if let key = CursesKeys.key(forCharacter: value) { events.append(.key(key)) }
            }
        }
        return events
    }

    /// What curses currently holds for each row, as text with trailing spaces trimmed: the same
    /// shape as ``Buffer/lines``, so a test can check that a frame really reached the screen.
    public func screenLines() -> [String] {
        guard !ended else { return [] }
        let window = cn_stdscr()
        return (0..<size.height).map { y in
            var line = ""
            var x = 0
            while x < size.width {
                var cell = cchar_t()
                guard mvwin_wch(window, Int32(y), Int32(x), &cell) != ERR else { break }
                var characters = [wchar_t](repeating: 0, count: CursesGlyphs.maximumPerGroup + 1)
                var attributes: attr_t = 0
                var pair: Int16 = 0
                getcchar(&cell, &characters, &attributes, &pair, nil)
                let scalars = characters.prefix { $0 != 0 }.compactMap { Unicode.Scalar(UInt32(truncatingIfNeeded: $0)) }
                line.unicodeScalars.append(contentsOf: scalars)
                let width = scalars.first.map { Int(wcwidth(wchar_t(truncatingIfNeeded: Int($0.value)))) } ?? 1
                x += max(1, width)
            }
            while line.unicodeScalars.last == " " { line.unicodeScalars.removeLast() }
            return line
        }
    }

    /// Sets the screen size by hand (headless screens in tests; a real terminal reports its own size).
    public func resize(to newSize: Size) {
        guard !ended, newSize.width > 0, newSize.height > 0 else { return }
        resizeterm(Int32(clamping: newSize.height), Int32(clamping: newSize.width))
        size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
        previous = nil
    }

    // MARK: - Drawing

    private func put(_ cell: Cell, x: Int, y: Int, window: UnsafeMutablePointer<WINDOW>?, columns: Int) {
        let (attributes, pair) = attributes(for: cell.style)
        var groups = CursesGlyphs.groups(for: cell)
        if x + cell.width > columns {
            // A wide character the (smaller) screen cannot hold: blank what fits.
            groups = Array(repeating: [wchar_t(truncatingIfNeeded: 0x20)], count: columns - x)
        }
        var column = x
        for group in groups {
            var characters = group + [0]
            var glyph = cchar_t()
            setcchar(&glyph, &characters, attributes, pair, nil)
            mvwadd_wch(window, Int32(y), Int32(column), &glyph)
            column += max(1, Int(wcwidth(group[0])))
        }
    }

    private struct PairKey: Hashable {
        var foreground: Int16
        var background: Int16
    }

    private func attributes(for style: Style) -> (attr_t, Int16) {
        var attributes = cn_WA_NORMAL()
        if style.bold { attributes |= cn_WA_BOLD() }
        if style.dim { attributes |= cn_WA_DIM() }
        if style.reverse { attributes |= cn_WA_REVERSE() }
        if style.underline { attributes |= cn_WA_UNDERLINE() }
        guard usesColor else { return (attributes, 0) }
        let (foreground, brighten) = cursesColor(style.foreground, background: false)
        let (background, _) = cursesColor(style.background, background: true)
        if brighten { attributes |= cn_WA_BOLD() }
        return (attributes, pair(foreground: foreground, background: background))
    }

    /// The curses colour number for a palette colour, and whether bold must stand in for "bright".
    private func cursesColor(_ color: Color, background: Bool) -> (Int16, Bool) {
        guard let index = color.ansiIndex else {
            return (defaultColors ? -1 : (background ? 0 : 7), false)
        }
        if index >= 8, colorCount < 16 { return (Int16(index - 8), !background) }
        return (Int16(index), false)
    }

    private func pair(foreground: Int16, background: Int16) -> Int16 {
        let key = PairKey(foreground: foreground, background: background)
        if let existing = pairs[key] { return existing }
        if defaultColors, foreground == -1, background == -1 { return 0 }
        let limit = Int(min(cn_color_pairs() - 1, Int32(Int16.max)))
        guard Int(nextPair) <= limit else { return 0 }
        let number = nextPair
        guard init_pair(number, foreground, background) == OK else { return 0 }
        nextPair += 1
        pairs[key] = number
        return number
    }

    private func setCursor(visible: Bool) {
        guard cursorVisible != visible else { return }
        cursorVisible = visible
        curs_set(visible ? 1 : 0)
        leaveok(cn_stdscr(), !visible)
    }

    // MARK: - Size

    private func checkSize(into events: inout [KeyEvent]) {
        if let tty = TerminalSize.of(outputDescriptor), tty.height != Int(cn_lines()) || tty.width != Int(cn_cols()) {
            resizeterm(Int32(clamping: tty.height), Int32(clamping: tty.width))
            needsClear = true
        }
        let current = Size(width: Int(cn_cols()), height: Int(cn_lines()))
        if current != size {
            size = current
            previous = nil
            events.append(.resize(current))
        }
    }

    // MARK: - Environment

    private static func environmentAllowsColor() -> Bool {
        colorAllowed(noColor: getenv("NO_COLOR").map { String(cString: $0) })
    }

    /// `NO_COLOR` (https://no-color.org): present and not empty disables colour.
    static func colorAllowed(noColor: String?) -> Bool {
        noColor?.isEmpty ?? true
    }

    /// The user's locale, but UTF-8 for characters: ncurses shows UTF-8 as `M-` escapes otherwise.
    private static func setUTF8Locale() {
        setlocale(LC_ALL, "")
        if isUTF8() { return }
        for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            if isUTF8() { return }
        }
    }

    private static func isUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// Terminal reset strings from terminfo, for the crash path (where `endwin` cannot be called).
    private static func resetSequence(mouse: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for capability in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            guard let value = capability.withCString({ tigetstr($0) }),
                  Int(bitPattern: value) != -1 else { continue }
            bytes.append(contentsOf: Array(String(cString: value).utf8))
        }
        if mouse {
            bytes.append(contentsOf: Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l".utf8))
        }
        return bytes
    }
}

/// Not `Sendable`: curses must be driven from the one thread that created the screen.
@available(*, unavailable)
extension CursesScreen: Sendable {}
