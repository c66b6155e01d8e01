import Testing
import TerminalUI

@Suite("Buffer")
struct BufferTests {
    @Test("Write returns columns used and clips at the right edge")
    func writeAndClip() {
        var buffer = Buffer(width: 8, height: 2)
        let used1 = buffer.write("hello", at: Point(x: 1, y: 0))
        #expect(used1 == 5)
        let used2 = buffer.write("truncated", at: Point(x: 3, y: 1))
        #expect(used2 == 5)
        #expect(buffer.lines == [" hello", "   trunc"])
        let used3 = buffer.write("x", at: Point(x: 0, y: 2))
        #expect(used3 == 0)
        let used4 = buffer.write("x", at: Point(x: 8, y: 0))
        #expect(used4 == 0)
    }

    @Test("maxWidth limits a write; chained writes line up")
    func maxWidthAndChaining() {
        var buffer = Buffer(width: 20, height: 1)
        var x = 0
        x += buffer.write("id=", at: Point(x: x, y: 0), style: Style(bold: true))
        x += buffer.write("abcdef", at: Point(x: x, y: 0), maxWidth: 4)
        x += buffer.write("|", at: Point(x: x, y: 0))
        #expect(x == 8)
        #expect(buffer.lines == ["id=abcd|"])
        #expect(buffer.style(at: Point(x: 0, y: 0))?.bold == true)
        #expect(buffer.style(at: Point(x: 3, y: 0))?.bold == false)
    }

    @Test("Wide characters take a lead and a continuation cell")
    func wideCells() throws {
        var buffer = Buffer(width: 6, height: 1)
        let used5 = buffer.write("漢a", at: .zero)
        #expect(used5 == 3)
        let lead = try #require(buffer.cell(at: Point(x: 0, y: 0)))
        let continuation = try #require(buffer.cell(at: Point(x: 1, y: 0)))
        #expect(lead.text == "漢" && lead.width == 2)
        #expect(continuation.isContinuation && continuation.text.isEmpty)
        #expect(buffer.cell(at: Point(x: 2, y: 0))?.text == "a")
        #expect(buffer.lines == ["漢a"])
    }

    @Test("A wide character at the edge is never split: the column is padded with a space")
    func wideAtEdge() {
        var buffer = Buffer(width: 5, height: 2)
        let used6 = buffer.write("ab漢字", at: .zero)
        #expect(used6 == 5)
        #expect(buffer.lines[0] == "ab漢")
        #expect(buffer.cell(at: Point(x: 4, y: 0))?.text == " ")
        #expect(buffer.cell(at: Point(x: 4, y: 0))?.isContinuation == false)

        let used7 = buffer.write("漢字", at: Point(x: 0, y: 1), maxWidth: 3)
        #expect(used7 == 3)
        #expect(buffer.lines[1] == "漢")
        #expect(buffer.cell(at: Point(x: 2, y: 1))?.text == " ")
    }

    @Test("Writing left of column 0 skips the hidden part without splitting a wide char")
    func negativeX() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.write("漢字ab", at: Point(x: -1, y: 0))
        #expect(buffer.lines == [" 字a"])
    }

    @Test("Overwriting half of a wide character blanks the other half")
    func overwriteWideHalf() {
        var buffer = Buffer(width: 6, height: 2)
        buffer.write("漢字", at: .zero)
        buffer.write("x", at: Point(x: 1, y: 0))
        #expect(buffer.lines[0] == " x字")
        #expect(buffer.cell(at: Point(x: 0, y: 0))?.width == 1)

        buffer.write("漢字", at: Point(x: 0, y: 1))
        buffer.write("y", at: Point(x: 2, y: 1))
        #expect(buffer.lines[1] == "漢y")
        #expect(buffer.cell(at: Point(x: 3, y: 1))?.isContinuation == false)
    }

    @Test("Combining characters stay in one cell with their base")
    func combining() {
        var buffer = Buffer(width: 5, height: 1)
        let used8 = buffer.write("e\u{301}x", at: .zero)
        #expect(used8 == 2)
        #expect(buffer.cell(at: .zero)?.text == "e\u{301}")
        #expect(buffer.cell(at: Point(x: 1, y: 0))?.text == "x")
    }

    @Test("A lone combining mark is drawn on a dotted circle")
    func loneMark() {
        var buffer = Buffer(width: 5, height: 1)
        let used9 = buffer.write("\u{301}a", at: .zero)
        #expect(used9 == 2)
        #expect(buffer.cell(at: .zero)?.text == "\u{25CC}\u{301}")
    }

    @Test("Emoji ZWJ sequences occupy two columns in one cell")
    func zwj() {
        var buffer = Buffer(width: 6, height: 1)
        let coder = "👩\u{200D}💻"
        let used10 = buffer.write(coder + "|", at: .zero)
        #expect(used10 == 3)
        #expect(buffer.cell(at: .zero)?.text == coder)
        #expect(buffer.cell(at: .zero)?.width == 2)
        #expect(buffer.cell(at: Point(x: 1, y: 0))?.isContinuation == true)
        #expect(buffer.lines == [coder + "|"])
    }

    @Test("Write sanitizes: no control character ever reaches a cell, escapes are dim")
    func sanitizes() {
        var buffer = Buffer(width: 30, height: 1)
        let used = buffer.write("a\u{1B}[2J\u{9B}\u{202E}\n", at: .zero)
        #expect(buffer.lines == ["a\\x1B[2J\\u{9B}\\u{202E}\\n"])
        #expect(used == TextWidth.width(of: "a\u{1B}[2J\u{9B}\u{202E}\n"))
        #expect(buffer.style(at: Point(x: 0, y: 0))?.dim == false)
        #expect(buffer.style(at: Point(x: 1, y: 0))?.dim == true)
        #expect(buffer.style(at: Point(x: 5, y: 0))?.dim == false)
        for x in 0..<buffer.width {
            let text = buffer.cell(at: Point(x: x, y: 0))?.text ?? ""
            #expect(Sanitizer.isSafe(text))
        }
    }

    @Test("Box drawing snapshot with a title")
    func box() {
        var buffer = Buffer(width: 14, height: 4)
        let inner = buffer.box(buffer.area, title: "Peers")
        buffer.write("app-1", at: inner.origin)
        #expect(inner == Rect(x: 1, y: 1, width: 12, height: 2))
        #expect(buffer.lines == [
            "┌ Peers ─────┐",
            "│app-1       │",
            "│            │",
            "└────────────┘",
        ])
    }

    @Test("Box titles are truncated and sanitized; tiny boxes draw nothing")
    func boxTitle() {
        var buffer = Buffer(width: 8, height: 3)
        buffer.box(buffer.area, title: "very long\u{1B}title")
        #expect(buffer.lines[0] == "┌ ver… ┐")
        var tiny = Buffer(width: 1, height: 1)
        tiny.box(tiny.area)
        #expect(tiny.lines == [""])
    }

    @Test("Fill paints a clipped rectangle")
    func fill() {
        var buffer = Buffer(width: 5, height: 3)
        let style = Style(background: .blue)
        buffer.fill(Rect(x: 3, y: 1, width: 10, height: 10), with: "#", style: style)
        #expect(buffer.lines == ["", "   ##", "   ##"])
        #expect(buffer.style(at: Point(x: 4, y: 2)) == style)
        #expect(buffer.style(at: Point(x: 0, y: 0)) == .plain)
    }

    @Test("rendered() joins trimmed lines; out-of-range cells are nil")
    func rendered() {
        var buffer = Buffer(width: 4, height: 2)
        buffer.write("ab  ", at: .zero)
        buffer.write("c", at: Point(x: 3, y: 1))
        #expect(buffer.rendered() == "ab\n   c")
        #expect(buffer.cell(at: Point(x: 4, y: 0)) == nil)
        #expect(buffer.style(at: Point(x: -1, y: 0)) == nil)
    }

    @Test("The example in Buffer's documentation is accurate")
    func documentationExample() {
        var buffer = Buffer(width: 20, height: 3)
        let inner = buffer.box(buffer.area, title: "Peers")
        buffer.write("● app-1", at: inner.origin, style: Style(foreground: .green))
        #expect(buffer.lines == [
            "┌ Peers ───────────┐",
            "│● app-1           │",
            "└──────────────────┘",
        ])
    }
}
