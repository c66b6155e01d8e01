import CNcurses
import Testing
import TerminalUI
import TestSupport
@testable import CursesBackend
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Headless curses: output to /dev/null, cells read back from ncurses' own screen.
/// Curses state is process-global, so these tests run one at a time.
@Suite("CursesScreen (headless)", .serialized)
struct CursesScreenTests {
    static let size = Size(width: 20, height: 5)

    func sampleBuffer() -> Buffer {
        var buffer = Buffer(size: Self.size)
        let inner = buffer.box(buffer.area, title: "Peers")
        buffer.write("app-1 漢字 ok", at: inner.origin, style: Style(foreground: .green, bold: true))
        buffer.write("e\u{301}\u{1B}[2J", at: Point(x: 1, y: 2))
        return buffer
    }

    /// The row as ncurses' `mvwinnwstr` returns it (wide characters once), trailing spaces trimmed.
    func row(_ y: Int, width: Int) -> String {
        var characters = [wchar_t](repeating: 0, count: width * 6 + 1)
        let count = mvwinnwstr(cn_stdscr(), Int32(y), 0, &characters, Int32(characters.count - 1))
        var line = String.UnicodeScalarView()
        for value in characters.prefix(Int(max(0, count))) {
            if let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: value)) { line.append(scalar) }
        }
        var text = String(line)
        while text.unicodeScalars.last == " " { text.unicodeScalars.removeLast() }
        return text
    }

    func attributes(x: Int, y: Int) -> (attr_t, Int16) {
        var cell = cchar_t()
        _ = mvwin_wch(cn_stdscr(), Int32(y), Int32(x), &cell)
        var characters = [wchar_t](repeating: 0, count: 8)
        var attributes: attr_t = 0
        var pair: Int16 = 0
        getcchar(&cell, &characters, &attributes, &pair, nil)
        return (attributes, pair)
    }

    @Test("A drawn buffer reaches curses cell by cell, wide characters included")
    func drawAndReadBack() throws {
        let screen = try CursesScreen(headlessSize: Self.size)
        defer { screen.end() }
        #expect(screen.size == Self.size)
        let buffer = sampleBuffer()
        screen.draw(buffer)
        #expect(screen.screenLines() == buffer.lines)
        #expect(row(1, width: Self.size.width) == "│app-1 漢字 ok     │")
        #expect(row(0, width: Self.size.width) == buffer.lines[0])
        #expect(row(2, width: Self.size.width) == buffer.lines[2])
        #expect(buffer.lines[2] == "│e\u{301}\\x1B[2J          │")
        #expect(screen.lastDrawnCellCount == Self.size.width * Self.size.height - 2)   // two continuations skipped
    }

    @Test("Attributes and colours are applied; the colour pair is reused")
    func attributesAndColours() throws {
        // colors: true, because the environment running the tests may set NO_COLOR.
        let screen = try CursesScreen(headlessSize: Self.size, options: CursesScreen.Options(colors: true))
        defer { screen.end() }
        let buffer = sampleBuffer()
        screen.draw(buffer)
        let (bold, pair) = attributes(x: 1, y: 1)
        #expect(bold & cn_WA_BOLD() != 0)
        #expect(screen.usesColor)
        #expect(pair != 0)
        let (_, samePair) = attributes(x: 2, y: 1)
        #expect(samePair == pair)
        let (escaped, _) = attributes(x: 3, y: 2)
        #expect(escaped & cn_WA_DIM() != 0)
        let (plain, plainPair) = attributes(x: 0, y: 0)
        #expect(plain & cn_WA_BOLD() == 0)
        #expect(plainPair == 0)
    }

    @Test("Without colours only attributes are used")
    func noColour() throws {
        let screen = try CursesScreen(headlessSize: Self.size, options: CursesScreen.Options(colors: false))
        defer { screen.end() }
        #expect(!screen.usesColor)
        var buffer = Buffer(size: Self.size)
        buffer.write("x", at: .zero, style: Style(foreground: .red, reverse: true))
        screen.draw(buffer)
        let (attributes, pair) = attributes(x: 0, y: 0)
        #expect(pair == 0)
        #expect(attributes & cn_WA_REVERSE() != 0)
    }

    @Test("Second frame sends only changed cells")
    func diffing() throws {
        let screen = try CursesScreen(headlessSize: Self.size)
        defer { screen.end() }
        var buffer = sampleBuffer()
        screen.draw(buffer)

        // Scribble on curses' screen behind the backend's back: an identical frame must not repaint it.
        _ = mvwaddnwstr(cn_stdscr(), 3, 5, [wchar_t(0x5A), 0], 1)
        screen.draw(buffer)
        #expect(screen.lastDrawnCellCount == 0)
        #expect(screen.screenLines()[3] == "│    Z             │")

        buffer.write("XY", at: Point(x: 1, y: 3))
        screen.draw(buffer)
        #expect(screen.lastDrawnCellCount == 2)
        #expect(screen.screenLines()[3] == "│XY  Z             │")

        // Replace a wide character by narrow ones and back again.
        buffer.write("abcd", at: Point(x: 7, y: 1))
        screen.draw(buffer)
        #expect(screen.screenLines()[1] == "│app-1 abcd ok     │")
        buffer.write("字", at: Point(x: 8, y: 1))
        screen.draw(buffer)
        #expect(screen.screenLines()[1] == "│app-1 a字d ok     │")

        // invalidate() forces a full repaint, which removes the scribble.
        screen.invalidate()
        screen.draw(buffer)
        #expect(screen.lastDrawnCellCount > 50)
        #expect(screen.screenLines() == buffer.lines)
    }

    @Test("Cells ncurses cannot hold as one glyph keep their width")
    func fallbackGlyphs() throws {
        let screen = try CursesScreen(headlessSize: Self.size)
        defer { screen.end() }
        var buffer = Buffer(size: Self.size)
        buffer.write("❤\u{FE0F}|👩\u{200D}💻|🙂|", at: .zero)
        screen.draw(buffer)
        let line = screen.screenLines()[0]
        #expect(line.hasPrefix("❤ |"))
        #expect(line.hasSuffix("|🙂|"))
        #expect(TextWidth.width(of: line) == TextWidth.width(of: buffer.lines[0]))
    }

    @Test("A resized screen draws the new frame size")
    func resize() throws {
        let screen = try CursesScreen(headlessSize: Self.size)
        defer { screen.end() }
        screen.draw(sampleBuffer())
        screen.resize(to: Size(width: 10, height: 3))
        #expect(screen.size == Size(width: 10, height: 3))
        var small = Buffer(size: screen.size)
        small.box(small.area)
        screen.draw(small)
        #expect(screen.screenLines() == small.lines)
    }

    @Test("Only one screen at a time; end() is idempotent")
    func single() throws {
        let screen = try CursesScreen(headlessSize: Self.size)
        #expect(throws: CursesError.alreadyActive) {
            _ = try CursesScreen(headlessSize: Self.size)
        }
        screen.end()
        screen.end()
        #expect(screen.readKeys().isEmpty)
        let again = try CursesScreen(headlessSize: Self.size)
        again.end()
    }

    /// What a headless screen reads while `typed` is written to its input: read until `done`
    /// holds of what was read, or ten seconds have passed (a loaded machine).
    private func events(typing typed: String, until done: ([KeyEvent]) -> Bool) throws -> [KeyEvent] {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let screen = try CursesScreen(headlessSize: Self.size, inputDescriptor: fds[0])
        defer { screen.end() }
        let bytes = Array(typed.utf8)
        #expect(write(fds[1], bytes, bytes.count) == bytes.count)
        var events: [KeyEvent] = []
        _ = waitUntilBlocking(timeout: .seconds(10)) { () -> Bool? in
            events += screen.readKeys()
            return done(events) ? true : nil
        }
        return events
    }

    @Test("Keys typed into the input are decoded into KeyEvents")
    func readKeys() throws {
        let typed = "aé\u{01}\r\t\u{7F}\u{1B}OA\u{1B}OB\u{1B}[Z\u{1B}OP\u{1B}[15~\u{1B}[3~\u{1B}[5~\u{1B}[6~\u{1B}OH\u{1B}OF\u{1B}"
        let events = try events(typing: typed) { $0.count >= 17 }
        #expect(events == [
            .key(.char("a")), .key(.char("é")), .key(.ctrl("a")), .key(.enter), .key(.tab), .key(.backspace),
            .key(.up), .key(.down), .key(.backTab), .key(.function(1)), .key(.function(5)), .key(.delete),
            .key(.pageUp), .key(.pageDown), .key(.home), .key(.end), .key(.escape),
        ])
    }

    @Test("An escape sequence terminfo does not name is read as its key, or ignored whole; never as Esc and text")
    func unknownEscapeSequences() throws {
        // xterm-256color names Home ESC O H; tmux sends ESC [ 1 ~. Ctrl-Home and an unknown F-key are ignored.
        let typed = "\u{1B}[1~x\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}[3~\u{1B}[1;5H\u{1B}[99~y"
        let events = try events(typing: typed) { $0.contains(.key(.char("y"))) }
        #expect(events == [.key(.home), .key(.char("x")), .key(.end), .key(.home), .key(.end), .key(.delete), .key(.char("y"))])
    }

    @Test("EventLoop on a screen returns the keys that woke it")
    func eventLoopWithScreen() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let screen = try CursesScreen(headlessSize: Self.size, inputDescriptor: fds[0])
        defer { screen.end() }
        let loop = EventLoop(screen: screen)
        let idle = loop.next(timeout: .milliseconds(20))
        #expect(idle.timedOut)
        #expect(write(fds[1], "q", 1) == 1)
        let tick = loop.next(timeout: .milliseconds(250))
        #expect(tick.inputReady)
        #expect(tick.events == [.key(.char("q"))])
    }
}
