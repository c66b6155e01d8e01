import CNcurses
import Testing
import TerminalUI
@testable import CursesBackend

@Suite("Curses key and glyph mapping")
struct CursesMappingTests {
    @Test("KEY_* codes map to keys")
    func keyCodes() {
        #expect(CursesKeys.key(forKeyCode: cn_KEY_UP()) == .up)
        #expect(CursesKeys.key(forKeyCode: cn_KEY_NPAGE()) == .pageDown)
        #expect(CursesKeys.key(forKeyCode: cn_KEY_DC()) == .delete)
        #expect(CursesKeys.key(forKeyCode: cn_KEY_BTAB()) == .backTab)
        #expect(CursesKeys.key(forKeyCode: cn_KEY_F(1)) == .function(1))
        #expect(CursesKeys.key(forKeyCode: cn_KEY_F(12)) == .function(12))
        #expect(CursesKeys.key(forKeyCode: cn_KEY_F(13)) == nil)
        #expect(CursesKeys.key(forCharacter: 0x03) == .ctrl("c"))
        #expect(CursesKeys.key(forCharacter: 0x0D) == .enter)
        #expect(CursesKeys.key(forCharacter: 0x9B) == nil)
    }

    @Test("Mouse button masks map to mouse events")
    func mouse() {
        #expect(CursesKeys.mouseEvent(state: cn_BUTTON1_PRESSED(), x: 3, y: 4) == MouseEvent(kind: .press(.left), position: Point(x: 3, y: 4)))
        #expect(CursesKeys.mouseEvent(state: cn_BUTTON3_RELEASED(), x: 0, y: 0)?.kind == .release(.right))
        #expect(CursesKeys.mouseEvent(state: cn_BUTTON4_PRESSED(), x: 0, y: 0)?.kind == .scrollUp)
        #expect(CursesKeys.mouseEvent(state: 0, x: 0, y: 0) == nil)
    }

    @Test("NO_COLOR disables colour only when set to a non-empty value")
    func noColorVariable() {
        #expect(CursesScreen.colorAllowed(noColor: nil))
        #expect(CursesScreen.colorAllowed(noColor: ""))
        #expect(!CursesScreen.colorAllowed(noColor: "1"))
    }
}
