@testable import InspectorTUI
import Testing

/// The log's viewport on its own (``LogViewport``): follow, pause, moves and clamping, with no
/// model around it.
@Suite("Log viewport")
struct LogViewportTests {
    /// A viewport `rows` high over `count` rows, as it is when they arrive while following.
    static func viewport(rows: Int = 10, count: Int = 25) -> LogViewport {
        var viewport = LogViewport(rows: rows)
        viewport.rowsChanged(count: count)
        return viewport
    }

    @Test("Following, new rows move the cursor to the newest and the window to the end")
    func followsNewRows() {
        var viewport = Self.viewport()
        #expect(viewport.following)
        #expect(viewport.cursor == 24)
        #expect(viewport.scroll == 15)
        viewport.rowsChanged(count: 30)
        #expect(viewport.cursor == 29)
        #expect(viewport.scroll == 20)
    }

    @Test("Moving up stops following, so new rows leave the cursor where it is; the last row follows again")
    func readingStopsFollowing() {
        var viewport = Self.viewport()
        viewport.move(by: -1)
        #expect(!viewport.following)
        #expect(viewport.cursor == 23)
        viewport.rowsChanged(count: 40)
        #expect(viewport.cursor == 23)
        #expect(viewport.scroll == 15)
        viewport.end()
        #expect(viewport.following)
        #expect(viewport.cursor == 39)
        #expect(viewport.scroll == 30)
    }

    @Test("Pages move one row less than fit; home and end go to the first and last row; moves clamp")
    func pagesHomeEnd() {
        var viewport = Self.viewport()
        #expect(viewport.page == 9)
        viewport.move(pages: -1)
        #expect(viewport.cursor == 15)
        #expect(viewport.scroll == 15)
        viewport.move(pages: -1)
        #expect(viewport.cursor == 6)
        #expect(viewport.scroll == 6)
        viewport.home()
        #expect(viewport.cursor == 0)
        #expect(viewport.scroll == 0)
        viewport.move(by: -5)
        #expect(viewport.cursor == 0)
        viewport.move(pages: 10)
        #expect(viewport.cursor == 24)
        #expect(viewport.following)
    }

    @Test("While paused nothing follows, not even the last row; resuming on the last row follows again")
    func pauseAndResume() {
        var viewport = Self.viewport()
        viewport.pause(atLogCount: 25)
        #expect(viewport.pausedAt != nil)
        #expect(viewport.pausedAt == 25)
        #expect(!viewport.following)
        viewport.end()
        #expect(!viewport.following)
        viewport.resume()
        #expect(viewport.following)
        viewport.rowsChanged(count: 28)
        #expect(viewport.cursor == 27)
        // Resumed while reading higher up: the cursor stays.
        viewport.move(by: -3)
        viewport.pause(atLogCount: 28)
        viewport.resume()
        #expect(!viewport.following)
        viewport.rowsChanged(count: 31)
        #expect(viewport.cursor == 24)
    }

    @Test("Unpausing to show a row keeps the place: the caller then moves to that row")
    func unpauseKeepingPlace() {
        var viewport = Self.viewport()
        viewport.pause(atLogCount: 25)
        viewport.unpauseKeepingPlace()
        #expect(viewport.pausedAt == nil)
        #expect(!viewport.following)
        viewport.rowsChanged(count: 30)
        #expect(viewport.cursor == 24)
        viewport.move(to: 27)
        #expect(viewport.cursor == 27)
        #expect(!viewport.following)
    }

    @Test("Fewer rows (a narrower filter) or a smaller window clamp the cursor and never scroll past the last row")
    func clamps() {
        var viewport = Self.viewport()
        viewport.move(to: 20)
        viewport.rowsChanged(count: 12)
        viewport.clamp()
        #expect(viewport.cursor == 11)
        #expect(viewport.scroll == 2)
        viewport.resize(rows: 4)
        #expect(viewport.rows == 4)
        #expect(viewport.scroll == 8)
        viewport.resize(rows: 40)
        #expect(viewport.scroll == 0)
        viewport.rowsChanged(count: 0)
        viewport.clamp()
        #expect(viewport.cursor == 0)
        #expect(viewport.scroll == 0)
        // A window of no rows still holds one (a screen too small to show the log).
        #expect(LogViewport(rows: 0).rows == 1)
    }

    @Test("Reselecting a row after a rebuild keeps follow mode as it was")
    func reselect() {
        var viewport = Self.viewport()
        viewport.move(by: -10)
        viewport.rowsChanged(count: 18)
        viewport.reselect(9)
        #expect(viewport.cursor == 9)
        #expect(!viewport.following)
        #expect(viewport.scroll <= 9 && viewport.scroll + viewport.rows > 9)
    }
}
