@testable import InspectorTUI
import Testing

/// Issue 13, trap 6: the column of a JSON mistake ignored the spaces typed before the JSON.
@Suite("Data field JSON errors")
struct DataFieldTests {
    static func message(_ text: String) -> String? {
        if case .failure(let error) = DataField.parse(text) { return error.message }
        return nil
    }

    @Test("The column counts from the first character typed, leading spaces included")
    func leadingSpaces() {
        #expect(Self.message(#"    {"a": 1 2}"#)?.hasPrefix("JSON line 1, column 13:") == true)
        #expect(Self.message(#"{"a": 1 2}"#)?.hasPrefix("JSON line 1, column 9:") == true)
        #expect(Self.message("\n  {\"a\" 1}")?.hasPrefix("JSON line 2, column 8:") == true)
    }

    @Test("The column counts characters, as seen, not bytes")
    func characters() {
        #expect(Self.message(#"{"é": 1 2}"#)?.hasPrefix("JSON line 1, column 9:") == true)
    }

    @Test("The event dialog shows the issue's example at column 13")
    func onScreen() {
        var model = journeyModel()
        model.press(.char("e"), .tab, .ctrl("u"))
        model.type(#"    {"a": 1 2}"#)
        #expect(model.screen.contains { $0.contains("✗ JSON line 1, column 13") })
    }
}
