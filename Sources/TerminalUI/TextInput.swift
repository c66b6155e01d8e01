/// A single-line text editor model (filter boxes, search prompts, dialog fields): text, cursor,
/// Emacs/readline editing keys and a history, with no terminal attached.
///
/// Keep one in your app state, pass it keys while it has focus, and draw it during render:
///
/// ```swift
/// // update
/// case .key(.enter):
///     state.filterText = state.filter.submit()      // also records it in the history
/// case .key(let key):
///     state.filter.handle(key)                       // editing keys, ↑/↓ history
///
/// // render
/// state.filter.draw(into: &buffer, in: filterRect, focused: state.focus == .filter,
///                   placeholder: "type to filter…")
/// ```
///
/// Keys understood by ``handle(_:)``: printable characters insert; ←/→ (Ctrl-B/F) move;
/// Home/End (Ctrl-A/E) jump; Backspace (Ctrl-H) and Delete (Ctrl-D) delete; Ctrl-K deletes to
/// the end, Ctrl-U to the start, Ctrl-W the word before the cursor; ↑/↓ (Ctrl-P/N) browse the
/// history. Enter, Esc and Tab are left to the caller.
///
/// Only safe characters are ever inserted: anything ``Sanitizer`` would escape (controls,
/// bidi overrides, pasted newlines) is dropped, so what the user sees is what gets submitted.
/// The cursor counts `Character`s (grapheme clusters), so it never lands inside an emoji or
/// between a letter and its accent.
public struct TextInput: Hashable, Sendable {
    private var characters: [Character]
    /// Cursor position in characters from the start: 0 is before the first character, `text.count` after the last.
    public private(set) var cursor: Int
    /// Submitted entries, oldest first, without empty entries or consecutive duplicates.
    public private(set) var history: [String]
    /// How many history entries are kept; the oldest are dropped beyond it.
    public var historyLimit: Int
    private var historyIndex: Int?
    private var draft: [Character] = []

    /// Creates an input holding `text` with the cursor at its end, and an optional earlier history (oldest first).
    public init(text: String = "", history: [String] = [], historyLimit: Int = 100) {
        characters = Self.safeCharacters(text)
        cursor = characters.count
        self.historyLimit = max(0, historyLimit)
        self.history = Array(history.filter { !$0.isEmpty }.suffix(self.historyLimit))
    }

    /// The current text. Setting it drops unsafe characters, moves the cursor to the end and stops history browsing.
    public var text: String {
        get { String(characters) }
        set {
            characters = Self.safeCharacters(newValue)
            cursor = characters.count
            stopBrowsing()
        }
    }

    /// True when there is no text.
    public var isEmpty: Bool { characters.isEmpty }

    /// Applies an editing key and returns whether it was used.
    ///
    /// Returns `false` for keys the input does not handle (Enter, Esc, Tab, F-keys…) and for
    /// ↑/↓ when there is no history to move through, so the caller can give them another meaning.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .char(let c):
            insert(String(c))
        case .left, .ctrl("b"):
            moveLeft()
        case .right, .ctrl("f"):
            moveRight()
        case .home, .ctrl("a"):
            moveToStart()
        case .end, .ctrl("e"):
            moveToEnd()
        case .backspace, .ctrl("h"):
            deleteBackward()
        case .delete, .ctrl("d"):
            deleteForward()
        case .ctrl("k"):
            deleteToEnd()
        case .ctrl("u"):
            deleteToStart()
        case .ctrl("w"):
            deleteWordBackward()
        case .up, .ctrl("p"):
            return historyPrevious()
        case .down, .ctrl("n"):
            return historyNext()
        default:
            return false
        }
        return true
    }

    /// Inserts text at the cursor (dropping unsafe characters) and moves the cursor after it. Also for paste.
    public mutating func insert(_ text: String) {
        let new = Self.safeCharacters(text)
        guard !new.isEmpty else { return }
        characters.insert(contentsOf: new, at: cursor)
        cursor += new.count
        stopBrowsing()
    }

    /// Moves the cursor one character left (no-op at the start).
    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    /// Moves the cursor one character right (no-op at the end).
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    /// Moves the cursor before the first character (Home, Ctrl-A).
    public mutating func moveToStart() { cursor = 0 }
    /// Moves the cursor after the last character (End, Ctrl-E).
    public mutating func moveToEnd() { cursor = characters.count }

    /// Deletes the character before the cursor (Backspace).
    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
        stopBrowsing()
    }

    /// Deletes the character under the cursor (Delete, Ctrl-D).
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
        stopBrowsing()
    }

    /// Deletes from the cursor to the end (Ctrl-K).
    public mutating func deleteToEnd() {
        guard cursor < characters.count else { return }
        characters.removeSubrange(cursor...)
        stopBrowsing()
    }

    /// Deletes from the start to the cursor (Ctrl-U).
    public mutating func deleteToStart() {
        guard cursor > 0 else { return }
        characters.removeSubrange(..<cursor)
        cursor = 0
        stopBrowsing()
    }

    /// Deletes the word before the cursor, and the whitespace between it and the cursor (Ctrl-W, as in a shell).
    public mutating func deleteWordBackward() {
        var start = cursor
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        guard start < cursor else { return }
        characters.removeSubrange(start..<cursor)
        cursor = start
        stopBrowsing()
    }

    /// Replaces the text with the previous (older) history entry; the text being typed is kept
    /// and comes back after ``historyNext()`` passes the newest entry. Returns `false` at the oldest entry.
    @discardableResult
    public mutating func historyPrevious() -> Bool {
        guard !history.isEmpty else { return false }
        let index: Int
        if let current = historyIndex {
            guard current > 0 else { return false }
            index = current - 1
        } else {
            draft = characters
            index = history.count - 1
        }
        historyIndex = index
        characters = Array(history[index])
        cursor = characters.count
        return true
    }

    /// Moves to the next (newer) history entry, or back to the text being typed after the newest.
    /// Returns `false` when not browsing the history.
    @discardableResult
    public mutating func historyNext() -> Bool {
        guard let current = historyIndex else { return false }
        if current + 1 < history.count {
            historyIndex = current + 1
            characters = Array(history[current + 1])
        } else {
            historyIndex = nil
            characters = draft
            draft = []
        }
        cursor = characters.count
        return true
    }

    /// Returns the text, records it in the history (unless empty or equal to the newest entry) and clears the input.
    @discardableResult
    public mutating func submit() -> String {
        let submitted = text
        if !submitted.isEmpty, history.last != submitted {
            history.append(submitted)
            if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
        }
        clear()
        return submitted
    }

    /// Empties the input (history is kept), e.g. when a dialog is cancelled with Esc.
    public mutating func clear() {
        characters = []
        cursor = 0
        stopBrowsing()
    }

    /// Draws the input on the first row of `rect` and returns where the cursor is (or `nil` when
    /// not focused or the rect is empty).
    ///
    /// The row is filled with `style`; when `focused`, the cell under the cursor is drawn in
    /// reverse video, so no terminal cursor is needed (pass the returned point to a backend if
    /// you prefer one). Text longer than the field scrolls horizontally: the view keeps the
    /// cursor in sight with the text as far left as possible, so editing at the end of a long
    /// filter shows its tail. An empty input shows `placeholder` dimmed.
    @discardableResult
    public func draw(
        into buffer: inout Buffer,
        in rect: Rect,
        style: Style = .plain,
        focused: Bool = true,
        placeholder: String = ""
    ) -> Point? {
        guard !rect.isEmpty else { return nil }
        let row = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        buffer.fill(row, style: style)
        if characters.isEmpty {
            buffer.write(placeholder, at: row.origin, style: style.dimmed, maxWidth: row.width)
            guard focused else { return nil }
            let first = TextWidth.truncate(Sanitizer.sanitize(placeholder), to: 1, ellipsis: "").first.map(String.init) ?? " "
            buffer.write(first, at: row.origin, style: style.dimmed.reversed, maxWidth: 1)
            return row.origin
        }
        let widths = characters.map { TextWidth.width(of: $0) }
        let cursorColumn = widths[..<cursor].reduce(0, +)
        let cursorWidth = min(cursor < characters.count ? widths[cursor] : 1, row.width)
        let offset = max(0, cursorColumn + cursorWidth - row.width)

        var column = 0
        var cursorPoint = row.origin
        for (index, character) in characters.enumerated() {
            defer { column += widths[index] }
            guard column >= offset else { continue }
            let x = row.x + column - offset
            guard x < row.maxX else { break }
            let isCursor = focused && index == cursor
            buffer.write(String(character), at: Point(x: x, y: row.y), style: isCursor ? style.reversed : style, maxWidth: row.maxX - x)
            if index == cursor { cursorPoint = Point(x: x, y: row.y) }
        }
        if cursor == characters.count {
            cursorPoint = Point(x: row.x + cursorColumn - offset, y: row.y)
            if focused { buffer.write(" ", at: cursorPoint, style: style.reversed, maxWidth: 1) }
        }
        return focused ? cursorPoint : nil
    }

    private mutating func stopBrowsing() {
        historyIndex = nil
        draft = []
    }

    private static func safeCharacters(_ text: String) -> [Character] {
        text.filter { Sanitizer.isSafe(String($0)) }.map { $0 }
    }
}
