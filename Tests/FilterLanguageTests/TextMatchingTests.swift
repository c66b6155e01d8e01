import FilterLanguage
import Foundation
import Testing

@Suite("TextMatching")
struct TextMatchingTests {
    @Test("action: patterns mean what reply rules' patterns mean, on ASCII and beyond", arguments: [
        ("camera.*", "camera.document.capture", true), ("*.capture", "camera.selfie.capture", true),
        ("camera.*.capture", "camera.document.capture", true), ("*", "", true), ("a*a", "a", false),
        ("nfc.read", "NFC.read", false), ("nfc.read", "nfc.read", true), ("*é*", "caméra", true), ("cam*ü", "camera", false),
    ])
    func actionPatternAgreesWithRules(pattern: String, text: String, expected: Bool) {
        #expect(TextMatching.glob(pattern, text) == expected)
        #expect(ActionPattern.matches(pattern, text) == expected)
    }

    @Test("Text is found in any case, ASCII or not; bytes exactly", arguments: [
        ("Camera.Document", "document", true), ("CAMÉRA", "améra", true), ("abc", "abd", false), ("", "a", false),
    ])
    func containsLowercased(haystack: String, needle: String, expected: Bool) {
        #expect(TextMatching.containsLowercased(haystack, needle) == expected)
        #expect(TextMatching.containsBytes(Data(haystack.utf8), needle) == haystack.contains(needle))
    }
}
