/// The log's viewport: of the rows the filter lets through (``count``), which is selected
/// (``cursor``), which is shown first (``scroll``) in a window of ``rows``, whether the
/// selection follows the newest row (``following``), and where the display was paused
/// (``pausedAt``). A value with its own update, as ratatui's `TableState` is: the model tells it
/// how many rows there are and how many fit, and moves it; it keeps itself consistent.
///
/// ```swift
/// var viewport = LogViewport(rows: 10)
/// viewport.rowsChanged(count: 25)      // following: the cursor is on row 24, rows 15–24 shown
/// viewport.move(by: -1)                // reading row 23: no longer following
/// viewport.pause(atLogCount: 25)
/// ```
public struct LogViewport: Sendable, Equatable {
    /// The selected row, an index into the visible rows.
    public private(set) var cursor = 0
    /// The first row shown.
    public private(set) var scroll = 0
    /// Follow mode: the cursor stays on the newest row as rows arrive. On whenever the cursor is
    /// on the newest row; off as soon as the person moves up to read.
    public private(set) var following = true
    /// While paused, the log's length when the display paused: later rows are collected but not
    /// shown (the count is).
    public private(set) var pausedAt: Int?
    /// How many rows there are to show.
    public private(set) var count = 0
    /// How many rows fit in the window (at least 1).
    public private(set) var rows: Int

    /// A viewport over no rows, `rows` high, following.
    public init(rows: Int) {
        self.rows = max(1, rows)
    }

    /// The rows a page moves: one less than fit, so a row of context stays in view.
    public var page: Int { max(1, rows - 1) }

    /// The window is now `rows` high (the terminal was resized).
    public mutating func resize(rows: Int) {
        self.rows = max(1, rows)
        clamp()
    }

    /// There are now `count` rows: a following viewport selects the newest, and the window keeps
    /// the cursor in view.
    public mutating func rowsChanged(count: Int) {
        self.count = max(0, count)
        if following { cursor = max(0, self.count - 1) }
        scrollToCursor()
    }

    /// Selects `row` without changing follow mode: the same row again after the rows were rebuilt.
    public mutating func reselect(_ row: Int) {
        cursor = row
        scrollToCursor()
    }

    /// Keeps the cursor on a row and the window on the cursor.
    public mutating func clamp() {
        cursor = min(max(0, cursor), max(0, count - 1))
        scrollToCursor()
    }

    /// Selects row `index` (clamped); follows again when it is the newest and the display is not paused.
    public mutating func move(to index: Int) {
        cursor = min(max(0, index), max(0, count - 1))
        following = pausedAt == nil && cursor >= count - 1
        scrollToCursor()
    }

    /// Moves the selection `delta` rows (negative: up).
    public mutating func move(by delta: Int) { move(to: cursor + delta) }

    /// Moves the selection a page down (`pages` 1) or up (-1).
    public mutating func move(pages: Int) { move(to: cursor + pages * page) }

    /// Selects the first row.
    public mutating func home() { move(to: 0) }

    /// Selects the newest row (and so follows, unless paused).
    public mutating func end() { move(to: count - 1) }

    /// Stops showing new rows: the log had `logCount` rows.
    public mutating func pause(atLogCount logCount: Int) {
        pausedAt = logCount
        following = false
    }

    /// Shows new rows again; follows when the cursor was on the newest row. The caller then
    /// brings the rows up to date (``rowsChanged(count:)``).
    public mutating func resume() {
        pausedAt = nil
        following = cursor >= count - 1
    }

    /// Shows new rows again without moving to them (to show a row that arrived during the pause).
    public mutating func unpauseKeepingPlace() {
        pausedAt = nil
    }

    /// Scrolls the least that shows the cursor, never past the last row.
    mutating func scrollToCursor() {
        if cursor < scroll { scroll = cursor }
        if cursor >= scroll + rows { scroll = cursor - rows + 1 }
        scroll = min(max(0, scroll), max(0, count - rows))
        if cursor < scroll { scroll = cursor }
    }
}
