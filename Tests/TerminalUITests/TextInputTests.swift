import Testing
import TerminalUI

@Suite("TextInput")
struct TextInputTests {
    func typed(_ text: String) -> TextInput {
        var input = TextInput()
        for c in text { input.handle(.char(c)) }
        return input
    }

    @Test("Typing, cursor moves and insertion in the middle")
    func editing() {
        var input = typed("helo")
        #expect(input.text == "helo" && input.cursor == 4)
        input.handle(.left)
        input.handle(.char("l"))
        #expect(input.text == "hello" && input.cursor == 4)
        input.handle(.home)
        input.handle(.char(">"))
        #expect(input.text == ">hello" && input.cursor == 1)
        input.handle(.end)
        #expect(input.cursor == 6)
        input.handle(.right)
        #expect(input.cursor == 6)
    }

    @Test("Backspace, Delete and Ctrl-D")
    func deleting() {
        var input = typed("abcd")
        input.handle(.backspace)
        #expect(input.text == "abc")
        input.handle(.home)
        input.handle(.delete)
        #expect(input.text == "bc" && input.cursor == 0)
        input.handle(.ctrl("d"))
        #expect(input.text == "c")
        input.handle(.backspace)
        #expect(input.text == "c" && input.cursor == 0)
    }

    @Test("Ctrl-A/E/K/U/W behave like readline")
    func readlineKeys() {
        var input = typed("status:error  peer")
        input.handle(.ctrl("w"))
        #expect(input.text == "status:error  ")
        input.handle(.ctrl("w"))
        #expect(input.text == "")
        input = typed("one two three")
        input.handle(.ctrl("a"))
        #expect(input.cursor == 0)
        input.handle(.ctrl("e"))
        #expect(input.cursor == 13)
        for _ in 0..<6 { input.handle(.left) }
        input.handle(.ctrl("k"))
        #expect(input.text == "one two" && input.cursor == 7)
        input.handle(.left)
        input.handle(.left)
        input.handle(.ctrl("u"))
        #expect(input.text == "wo" && input.cursor == 0)
    }

    @Test("The cursor moves over whole grapheme clusters")
    func clusters() {
        var input = typed("a👩\u{200D}💻e\u{301}")
        #expect(input.cursor == 3)
        input.handle(.backspace)
        #expect(input.text == "a👩\u{200D}💻")
        input.handle(.backspace)
        #expect(input.text == "a")
    }

    @Test("Unsafe characters are never inserted")
    func unsafe() {
        var input = TextInput()
        input.insert("a\u{1B}[2J\nb\u{202E}c")
        #expect(input.text == "a[2Jbc")
        input.text = "x\ty"
        #expect(input.text == "xy" && input.cursor == 2)
    }

    @Test("Unhandled keys are reported as such")
    func unhandled() {
        var input = TextInput()
        let r1 = input.handle(.enter)
        #expect(r1 == false)
        let r2 = input.handle(.escape)
        #expect(r2 == false)
        let noHistory = input.handle(.up)
        #expect(noHistory == false)
        let r3 = input.handle(.char("x"))
        #expect(r3 == true)
    }

    @Test("History: submit, browse up and down, draft restored")
    func history() {
        var input = TextInput()
        input.insert("first")
        let r4 = input.submit()
        #expect(r4 == "first")
        input.insert("second")
        input.submit()
        input.insert("second")
        input.submit()                     // consecutive duplicate not recorded
        input.submit()                     // empty not recorded
        #expect(input.history == ["first", "second"])
        #expect(input.text.isEmpty)

        input.insert("dra")
        let r5 = input.handle(.up)
        #expect(r5)
        #expect(input.text == "second")
        let r6 = input.handle(.up)
        #expect(r6)
        #expect(input.text == "first")
        let r7 = input.handle(.up)
        #expect(r7 == false)
        let r8 = input.handle(.down)
        #expect(r8)
        #expect(input.text == "second")
        let r9 = input.handle(.down)
        #expect(r9)
        #expect(input.text == "dra" && input.cursor == 3)
        let r10 = input.handle(.down)
        #expect(r10 == false)
    }

    @Test("History is capped at its limit")
    func historyLimit() {
        var input = TextInput(historyLimit: 2)
        for entry in ["a", "b", "c"] {
            input.insert(entry)
            input.submit()
        }
        #expect(input.history == ["b", "c"])
    }

    @Test("Draw shows the text and a reverse-video cursor")
    func draw() {
        var buffer = Buffer(width: 12, height: 1)
        var input = typed("abc")
        input.handle(.left)
        let cursor = input.draw(into: &buffer, in: Rect(x: 2, y: 0, width: 8, height: 1))
        #expect(buffer.lines == ["  abc"])
        #expect(cursor == Point(x: 4, y: 0))
        #expect(buffer.style(at: Point(x: 4, y: 0))?.reverse == true)
        #expect(buffer.style(at: Point(x: 3, y: 0))?.reverse == false)
    }

    @Test("Draw scrolls horizontally to keep the cursor visible")
    func horizontalScroll() {
        var buffer = Buffer(width: 6, height: 1)
        let input = typed("abcdefghij")
        let cursor = input.draw(into: &buffer, in: Rect(x: 0, y: 0, width: 6, height: 1))
        #expect(buffer.lines == ["fghij"])
        #expect(cursor == Point(x: 5, y: 0))
        #expect(buffer.style(at: Point(x: 5, y: 0))?.reverse == true)

        var home = input
        home.handle(.home)
        buffer = Buffer(width: 6, height: 1)
        let homeCursor = home.draw(into: &buffer, in: buffer.area)
        #expect(homeCursor == Point(x: 0, y: 0))
        #expect(buffer.lines == ["abcdef"])
    }

    @Test("Horizontal scrolling with wide characters never splits one")
    func wideScroll() {
        var buffer = Buffer(width: 5, height: 1)
        let input = typed("漢字かな")
        let cursor = input.draw(into: &buffer, in: buffer.area)
        #expect(buffer.lines == ["かな"])
        #expect(cursor == Point(x: 4, y: 0))
    }

    @Test("Placeholder shows dimmed when empty; unfocused draws no cursor")
    func placeholder() {
        var buffer = Buffer(width: 10, height: 1)
        let input = TextInput()
        let cursor = input.draw(into: &buffer, in: buffer.area, focused: false, placeholder: "filter…")
        #expect(cursor == nil)
        #expect(buffer.lines == ["filter…"])
        #expect(buffer.style(at: .zero)?.dim == true)
        #expect(buffer.style(at: .zero)?.reverse == false)
    }
}
