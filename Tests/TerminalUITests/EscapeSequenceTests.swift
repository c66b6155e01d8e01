import TerminalUI
import Testing

/// Issue 27, trap 8: an escape sequence terminfo does not name (Home as `ESC [1~` under
/// `TERM=xterm-256color` in tmux) was read as Esc, which cancels a dialog, and its characters
/// typed as text.
@Suite("Escape sequences after an Esc")
struct EscapeSequenceTests {
    static func parse(_ text: String) -> EscapeSequence.Match? {
        EscapeSequence.parse(afterEscape: Array(text.unicodeScalars))
    }

    @Test("Home, End, Delete and the other VT220 forms are their keys", arguments: [
        ("[1~", Key.home), ("[7~", .home), ("OH", .home), ("[H", .home), ("[4~", .end), ("[8~", .end), ("OF", .end), ("[F", .end),
        ("[3~", .delete), ("[2~", .insert), ("[5~", .pageUp), ("[6~", .pageDown), ("[A", .up), ("OB", .down), ("[Z", .backTab),
        ("[15~", .function(5)), ("OP", .function(1)), ("[24~", .function(12)),
    ])
    func known(sequence: String, key: Key) {
        #expect(Self.parse(sequence) == EscapeSequence.Match(length: sequence.unicodeScalars.count, key: key))
    }

    @Test("an unknown sequence is consumed whole and ignored", arguments: ["[99~", "[1;5H", "[1;2A", "[?1049h", "[<0;3;4M", "OX", "[200~", "[I"])
    func unknown(sequence: String) {
        #expect(Self.parse(sequence) == EscapeSequence.Match(length: sequence.unicodeScalars.count, key: nil))
    }

    @Test("only the sequence is taken: what follows it is read next")
    func stopsAtTheFinalByte() {
        #expect(Self.parse("[1~abc") == EscapeSequence.Match(length: 3, key: .home))
        #expect(Self.parse("OHx") == EscapeSequence.Match(length: 2, key: .home))
        // A control character ends a broken sequence, unread.
        #expect(Self.parse("[1\r") == EscapeSequence.Match(length: 2, key: nil))
    }

    @Test("a sequence cut off by the end of the burst is consumed, never typed")
    func cutOff() {
        #expect(Self.parse("[1") == EscapeSequence.Match(length: 2, key: nil))
        #expect(Self.parse("O") == EscapeSequence.Match(length: 1, key: nil))
    }

    @Test("Esc and a key in one burst (tmux send-keys Escape q, a fast typist) are Esc and then that key, as ncurses reads them")
    func escapeThenKey() {
        #expect(Self.parse("q") == nil)
        #expect(Self.parse("x[") == nil)
    }

    @Test("an Esc alone, or followed by another Esc or a control character, is the Esc key")
    func bareEscape() {
        #expect(Self.parse("") == nil)
        #expect(Self.parse("\u{1B}[1~") == nil)
        #expect(Self.parse("\r") == nil)
    }
}
