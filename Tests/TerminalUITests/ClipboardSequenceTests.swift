import Foundation
import TerminalUI
import Testing

/// The OSC 52 sequence the inspector's `y` and `Y` write (issue 15, "Copy").
@Suite("OSC 52 clipboard sequence")
struct ClipboardSequenceTests {
    static let escape: UInt8 = 0x1B
    static let bell: UInt8 = 0x07

    @Test("The plain sequence is ESC ] 52 ; c ; base64 BEL, byte for byte")
    func plainSequence() {
        let bytes = ClipboardSequence.osc52(Array("hi".utf8), insideTmux: false)
        #expect(bytes == [0x1B] + Array("]52;c;aGk=".utf8) + [0x07])
    }

    @Test("Inside tmux: the plain sequence (for set-clipboard on), then the same wrapped in DCS passthrough with every ESC doubled")
    func tmuxSequence() {
        let bytes = ClipboardSequence.osc52(Array("hi".utf8), insideTmux: true)
        let expected: [UInt8] = [0x1B] + Array("]52;c;aGk=".utf8) + [0x07] + [0x1B] + Array("Ptmux;".utf8) + [0x1B, 0x1B] + Array("]52;c;aGk=".utf8) + [0x07, 0x1B] + Array("\\".utf8)
        #expect(bytes == expected)
    }

    @Test("base64 matches Foundation's for every length and every byte value")
    func base64MatchesFoundation() {
        let all = (0...255).map { UInt8($0) }
        for length in 0...all.count {
            let input = Array(all.prefix(length).reversed())
            #expect(ClipboardSequence.base64(input) == Array(Data(input).base64EncodedString().utf8), "length \(length)")
            #expect(ClipboardSequence.base64Length(of: length) == ClipboardSequence.base64(input).count)
        }
    }

    @Test("No byte of hostile text can end the sequence early or start another: only the framing holds control bytes")
    func hostilePayloadCannotEscape() {
        // BEL and ST end an OSC; ESC starts anything; C1 controls (0x9C ST, 0x9D OSC, 0x90 DCS) do in 8-bit terminals.
        var hostile: [UInt8] = [0x07, 0x1B, 0x5C, 0x9C, 0x9D, 0x90, 0x0A, 0x0D, 0x00, 0x7F]
        hostile += Array("\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\u{1B}P\u{1B}\\".utf8)
        let base64Alphabet = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8))

        let plain = ClipboardSequence.osc52(hostile, insideTmux: false)
        let plainPrefix: [UInt8] = [Self.escape] + Array("]52;c;".utf8)
        #expect(Array(plain.prefix(plainPrefix.count)) == plainPrefix)
        #expect(plain.last == Self.bell)
        let plainBody = plain.dropFirst(plainPrefix.count).dropLast()
        #expect(plainBody.allSatisfy(base64Alphabet.contains))
        #expect(Data(base64Encoded: Data(plainBody)) == Data(hostile))

        let wrapped = ClipboardSequence.osc52(hostile, insideTmux: true)
        #expect(Array(wrapped.prefix(plain.count)) == plain)
        let wrappedPrefix: [UInt8] = plain + [Self.escape] + Array("Ptmux;".utf8) + [Self.escape, Self.escape] + Array("]52;c;".utf8)
        let wrappedSuffix: [UInt8] = [Self.bell, Self.escape, UInt8(ascii: "\\")]
        #expect(Array(wrapped.prefix(wrappedPrefix.count)) == wrappedPrefix)
        #expect(Array(wrapped.suffix(wrappedSuffix.count)) == wrappedSuffix)
        let wrappedBody = wrapped.dropFirst(wrappedPrefix.count).dropLast(wrappedSuffix.count)
        #expect(wrappedBody.allSatisfy(base64Alphabet.contains))
        #expect(Array(wrappedBody) == Array(plainBody))
    }

    @Test("The size cap keeps the base64 under the 100,000 characters many terminals accept")
    func capFitsTerminals() {
        #expect(ClipboardSequence.base64Length(of: ClipboardSequence.maxPayloadBytes) <= 100_000)
    }

    @Test("tmux drops the sequence only when it neither takes it (set-clipboard on) nor passes it through (allow-passthrough on)")
    func tmuxDropsIt() {
        #expect(ClipboardSequence.tmuxDropsIt(setClipboard: "external\n", allowPassthrough: "off\n"))
        #expect(ClipboardSequence.tmuxDropsIt(setClipboard: "off", allowPassthrough: "off"))
        #expect(!ClipboardSequence.tmuxDropsIt(setClipboard: "on\n", allowPassthrough: "off"))
        #expect(!ClipboardSequence.tmuxDropsIt(setClipboard: "external", allowPassthrough: "on"))
        #expect(!ClipboardSequence.tmuxDropsIt(setClipboard: "external", allowPassthrough: "all"))
        #expect(!ClipboardSequence.tmuxDropsIt(setClipboard: "external", allowPassthrough: nil), "before tmux 3.3 passthrough always works")
    }
}
