/// The one pattern rule for actions, shared by reply rules (`auto-respond --action`, the rules
/// file) and the filter language's `action:` term, so that a pattern means the same in both.
///
/// `*` matches any run of characters (also none); everything else matches literally and
/// case-sensitively, as the host routes actions:
///
/// ```swift
/// ActionPattern.matches("camera.*", "camera.document.capture")  // true
/// ActionPattern.matches("*.capture", "camera.selfie.capture")   // true
/// ActionPattern.matches("nfc.read", "NFC.read")                 // false
/// ```
public enum ActionPattern {
    /// Whether `text` matches `pattern`: the part before the first `*` is a prefix, the part
    /// after the last `*` a suffix, and the parts in between occur in order, leftmost first.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        if !pattern.contains("*") { return pattern == text }
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
        var rest = Substring(text)
        for (index, part) in parts.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(part) else { return false }
                rest = rest.dropFirst(part.count)
            } else if index == parts.count - 1 {
                return part.isEmpty || rest.hasSuffix(part)
            } else if !part.isEmpty {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
        }
        return true
    }
}
