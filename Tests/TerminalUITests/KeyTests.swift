import Testing
import TerminalUI

@Suite("Key")
struct KeyTests {
    @Test("Terminal control characters map to named keys")
    func controlCharacters() {
        #expect(Key.fromTerminalCharacter("\r") == .enter)
        #expect(Key.fromTerminalCharacter("\n") == .enter)
        #expect(Key.fromTerminalCharacter("\t") == .tab)
        #expect(Key.fromTerminalCharacter("\u{7F}") == .backspace)
        #expect(Key.fromTerminalCharacter("\u{08}") == .backspace)
        #expect(Key.fromTerminalCharacter("\u{1B}") == .escape)
        #expect(Key.fromTerminalCharacter("\u{01}") == .ctrl("a"))
        #expect(Key.fromTerminalCharacter("\u{03}") == .ctrl("c"))
        #expect(Key.fromTerminalCharacter("\u{1A}") == .ctrl("z"))
        #expect(Key.fromTerminalCharacter("\u{00}") == nil)
        #expect(Key.fromTerminalCharacter("\u{9B}") == nil)
        #expect(Key.fromTerminalCharacter("\u{202E}") == nil)
        #expect(Key.fromTerminalCharacter("é") == .char("é"))
    }

    @Test("Descriptions for key hints")
    func descriptions() {
        #expect(Key.ctrl("c").description == "Ctrl-C")
        #expect(Key.function(5).description == "F5")
        #expect(Key.char(" ").description == "Space")
        #expect(Key.pageDown.description == "PgDn")
        #expect(KeyEvent.key(.char("q")) != KeyEvent.key(.char("Q")))
    }
}
