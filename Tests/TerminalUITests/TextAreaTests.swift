import TerminalUI
import Testing

@Suite("TextArea")
struct TextAreaTests {
    @Test("opens on its first line; ↑ ↓ keep the column where the line is long enough")
    func moving() {
        var area = TextArea(text: "{\n  \"a\" : 1,\n  \"b\" : 2\n}")
        #expect(area.lineCount == 4 && area.row == 0 && area.column == 0)
        area.handle(.down)
        area.handle(.end)
        #expect(area.row == 1 && area.column == 10)
        area.handle(.down)
        #expect(area.row == 2 && area.column == 9, "the shorter line's end")
        area.handle(.down)
        #expect(area.row == 3 && area.column == 1)
        area.handle(.down)
        #expect(area.row == 3, "no line below the last")
        area.handle(.up)
        area.handle(.up)
        area.handle(.up)
        area.handle(.up)
        #expect(area.row == 0)
    }

    @Test("← at a line's start goes to the end of the line above; → at its end to the start of the next")
    func crossingLines() {
        var area = TextArea(text: "ab\ncd")
        area.handle(.down)
        area.handle(.left)
        #expect(area.row == 0 && area.column == 2)
        area.handle(.right)
        #expect(area.row == 1 && area.column == 0)
    }

    @Test("Ctrl-O breaks the line at the cursor; Backspace at a line's start and Delete at its end join lines")
    func breakingAndJoining() {
        var area = TextArea(text: "abcd")
        area.handle(.right)
        area.handle(.right)
        area.handle(.ctrl("o"))
        #expect(area.text == "ab\ncd")
        #expect(area.row == 1 && area.column == 0)
        area.handle(.backspace)
        #expect(area.text == "abcd")
        #expect(area.row == 0 && area.column == 2)
        area.handle(.ctrl("o"))
        area.handle(.up)
        area.handle(.end)
        area.handle(.delete)
        #expect(area.text == "abcd")
        area.handle(.home)
        area.handle(.backspace)
        #expect(area.text == "abcd", "nothing above the first line to join")
    }

    @Test("typing inserts on the cursor's line; Enter, Esc and Tab are left to the caller")
    func typingAndCallerKeys() {
        var area = TextArea(text: "{\n}")
        area.handle(.down)
        area.handle(.char("x"))
        #expect(area.text == "{\nx}")
        let used = [Key.enter, .escape, .tab].map { area.handle($0) }
        #expect(used == [false, false, false])
        #expect(area.text == "{\nx}")
    }

    @Test("CR LF and lone CR split lines too; the text joins with LF")
    func lineBreaks() {
        #expect(TextArea(text: "a\r\nb\rc").text == "a\nb\nc")
        #expect(TextArea(text: "").lineCount == 1)
    }

    @Test("draws numbered lines scrolled to the cursor, and marks the line it is told")
    func drawing() {
        var area = TextArea(text: (1...10).map { "line \($0)" }.joined(separator: "\n"))
        area.visibleLines = 3
        for _ in 0..<5 { area.handle(.down) }
        var buffer = Buffer(size: Size(width: 20, height: 3))
        area.draw(into: &buffer, in: Rect(x: 0, y: 0, width: 20, height: 3), marking: 5)
        let lines = buffer.lines
        #expect(lines[0].hasPrefix("  4  line 4"))
        #expect(lines[1].hasPrefix("  5✗ line 5"))
        #expect(lines[2].hasPrefix("  6  line 6"))
        // PgUp moves a page less one line.
        area.handle(.pageUp)
        #expect(area.row == 3)
    }
}
