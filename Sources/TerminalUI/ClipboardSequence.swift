/// The terminal escape sequence that puts text on the clipboard: OSC 52
/// (`ESC ] 52 ; c ; <base64> BEL`), which xterm, iTerm2, kitty, WezTerm, Windows Terminal and
/// others honour. It travels with the program's output, so it works over SSH as well.
///
/// The payload is base64: its alphabet (`A–Z a–z 0–9 + / =`) has no control character, so no
/// byte of the copied text, however hostile, can end the sequence early or start another one.
///
/// Inside tmux the sequence is written twice: as it is, which tmux takes into its paste buffer
/// and passes on to the outer terminal when its `set-clipboard` is `on`, then wrapped in tmux's
/// DCS passthrough (`ESC P tmux; <the sequence with every ESC doubled> ESC \`), which reaches
/// the outer terminal when `set-clipboard` is off or `external` (tmux 3.3 and later forward it
/// only with `set -g allow-passthrough on`). Whichever way tmux is set up, one of the two gets
/// through; when both do, the clipboard is set twice to the same text.
///
/// ```swift
/// let bytes = ClipboardSequence.osc52(Array(json), insideTmux: environment["TMUX"] != nil)
/// screen.writeThrough(bytes)
/// ```
public enum ClipboardSequence {
    /// Whether tmux, set up as its options say, keeps both copies of the sequence from the
    /// outer terminal: `set-clipboard` not `on` (tmux's default is `external`, which forwards
    /// only tmux's own copies) and `allow-passthrough` `off` (tmux 3.3 and later; `nil` when the
    /// option does not exist, as before 3.3, where passthrough always works). Then nothing is
    /// copied, and the inspector must not say it was.
    ///
    /// ```swift
    /// ClipboardSequence.tmuxDropsIt(setClipboard: "external", allowPassthrough: "off")  // true
    /// ClipboardSequence.tmuxDropsIt(setClipboard: "on", allowPassthrough: "off")        // false
    /// ```
    public static func tmuxDropsIt(setClipboard: String?, allowPassthrough: String?) -> Bool {
        func word(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined() }
        let takesIt = setClipboard.map(word) == "on"
        let passesIt = allowPassthrough.map { ["on", "all"].contains(word($0)) } ?? true
        return !takesIt && !passesIt
    }

    /// The most bytes copied at once: 74,994 bytes make 99,992 base64 characters, under the
    /// 100,000 that many terminals (hterm, and others that follow its `osc52.sh`) accept.
    public static let maxPayloadBytes = 74_994

    /// The OSC 52 sequence that copies `payload` to the clipboard; when `insideTmux`, followed
    /// by the same sequence wrapped for tmux's passthrough (see the type's notes).
    public static func osc52(_ payload: [UInt8], insideTmux: Bool) -> [UInt8] {
        let escape: UInt8 = 0x1B
        let bell: UInt8 = 0x07
        let sequence = [escape] + Array("]52;c;".utf8) + base64(payload) + [bell]
        guard insideTmux else { return sequence }
        var wrapped = sequence + [escape] + Array("Ptmux;".utf8)
        for byte in sequence {
            if byte == escape { wrapped.append(escape) }
            wrapped.append(byte)
        }
        wrapped += [escape, UInt8(ascii: "\\")]
        return wrapped
    }

    /// `bytes` in standard base64 (RFC 4648, with `=` padding).
    public static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let first = UInt32(bytes[index])
            let second = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let third = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let group = first << 16 | second << 8 | third
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(index + 1 < bytes.count ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return output
    }

    /// How many base64 characters `count` bytes become.
    public static func base64Length(of count: Int) -> Int { (count + 2) / 3 * 4 }
}
