import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import TerminalUI
import Testing

/// `bridge-inspector --rules FILE` (issue 13): a rules file shared as auto-respond's is loaded
/// into the inspector paused, with the same kind of note as its saved rules, and not twice.
@Suite("Shared rules file")
struct SharedRulesFileTests {
    static let file = """
        {"rules": [
          {"name": "nfc-ok", "action": "nfc.read", "times": 2, "data": {"uid": "04A2"}},
          {"action": "wallet.*", "status": "unsupported"}
        ]}
        """

    @Test("A shared rules file is read by auto-respond's reader and loaded paused, with a note naming it; a paused rule answers nothing")
    func loadedPaused() throws {
        let book = try ReplyRuleBook.decode(Data(Self.file.utf8))
        var model = journeyModel()  // nfc-1 (nfc.read) is pending
        InspectorStateStore.loadShared(book, from: "team/rules.json", into: &model)
        #expect(model.rules.rules.map(\.action) == ["nfc.read", "wallet.*"])
        #expect(model.rules.rules.allSatisfy { !$0.isEnabled && $0.hits == 0 })
        #expect(model.footer.contains("2 reply rules loaded from team/rules.json, paused: R to see them, space to resume one"))
        #expect(model.handle(.tick(Fixture.t0 + 1_000)).isEmpty)
    }

    @Test("Loaded after the saved rules, a shared file's rules already saved from an earlier run are not added twice")
    func notTwice() throws {
        let state = StateDirectory(path: NSTemporaryDirectory() + "bi-tui-shared-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: state.path) }
        let book = try ReplyRuleBook.decode(Data(Self.file.utf8))
        var first = journeyModel()
        var store = InspectorStateStore(directory: state)
        store.load(into: &first)
        InspectorStateStore.loadShared(book, from: "rules.json", into: &first)
        #expect(store.saveChanges(of: first) == nil)

        var second = journeyModel()
        var secondStore = InspectorStateStore(directory: state)
        secondStore.load(into: &second)
        InspectorStateStore.loadShared(book, from: "team/rules.json", into: &second)
        #expect(second.rules.rules.count == 2)
        #expect(second.footer.contains("the rules in team/rules.json are already loaded"))
    }

    @Test("The one reader names a missing file, an empty one, and the place of a mistake")
    func readerErrors() throws {
        let directory = NSTemporaryDirectory() + "bi-rules-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: ReplyRuleFileError(place: "", reason: "no such file")) { try ReplyRuleBook.read(file: directory + "/none.json") }
        try #"{"rules": []}"#.write(toFile: directory + "/empty.json", atomically: true, encoding: .utf8)
        #expect(throws: ReplyRuleFileError(place: "", reason: "holds no rules")) { try ReplyRuleBook.read(file: directory + "/empty.json") }
        try #"{"rules": [{"action": "nfc.read", "status": "fine"}]}"#.write(toFile: directory + "/bad.json", atomically: true, encoding: .utf8)
        do {
            _ = try ReplyRuleBook.read(file: directory + "/bad.json")
            Issue.record("a bad status was read")
        } catch {
            #expect(error.place == "rules[0].status" && error.isInContent, "\(error)")
        }
    }
}
