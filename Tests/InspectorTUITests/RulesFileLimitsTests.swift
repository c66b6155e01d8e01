import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import Testing

/// Rules files the inspector and `auto-respond` can use whatever their size (issue 24, point 11):
/// a rule whose data no command can carry is refused when the file is read (it used to wait and
/// end in "the host's main thread may be blocked"), and 100,000 rules load in linear time (10,000
/// took 7.6 s of CPU to start, 100,000 never started).
@Suite("Rules files: what can be sent, and how many")
struct RulesFileLimitsTests {
    /// A fresh folder under the temporary directory, removed by the caller.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "bi-rules-limits-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    @Test("A rules file with a rule whose data is over what a command carries is refused when read, naming the rule")
    func oversizedData() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/big.json"
        let big = String(repeating: "A", count: ReplyRuleBook.maxDataBytes)
        let text = #"{"rules": [{"name": "small", "action": "nfc.read"}, {"name": "huge", "action": "document.upload", "data": {"image": ""#
            + big + #""}}]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        do {
            _ = try ReplyRuleBook.read(file: file)
            Issue.record("a rule whose answer can never be sent was read")
        } catch {
            #expect(error.place == "rules[1].data", "\(error)")
            #expect(error.reason.contains("rule 'huge'") && error.reason.contains("\(ReplyRuleBook.maxDataBytes)"), "\(error)")
        }
        #expect(ReplyRuleBook.maxDataBytes < WireProtocol.maxClientFrameBytes)
    }

    // The time limit only catches a load that never ends: how fast rules load is a figure for a
    // benchmark, not a test (on a loaded two-core machine 200,000 rules took over three minutes).
    @Test("20,000 saved rules and a shared file of 20,000 more load at start, each keeping an id of its own", .timeLimit(.minutes(5)))
    func manyRulesLoad() throws {
        let base = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let state = StateDirectory(path: base + "/bridge-inspector")
        let count = 20_000
        // Ids clash on purpose in the shared book (1...count again): each needs a new id.
        let saved = ReplyRuleBook(rules: (1...count).map { ReplyRule(name: "saved-\($0)", action: "nfc.read", response: .init(), id: $0) })
        try state.save(saved, as: InspectorStateStore.rulesFile)
        var model = makeModel()
        var store = InspectorStateStore(directory: state)
        store.load(into: &model)
        #expect(model.rules.rules.count == count)
        #expect(model.rules.rules.allSatisfy { !$0.isEnabled })

        let shared = ReplyRuleBook(rules: (1...count).map { ReplyRule(name: "team-\($0)", action: "wallet.pay", response: .init(), id: $0) })
        InspectorStateStore.loadShared(shared, from: "team/rules.json", into: &model)
        #expect(model.rules.rules.count == 2 * count)
        #expect(Set(model.rules.rules.map(\.id)).count == 2 * count, "every rule keeps an id of its own")
        // Loaded again (the same file given in the next run): nothing is added twice.
        InspectorStateStore.loadShared(shared, from: "team/rules.json", into: &model)
        #expect(model.rules.rules.count == 2 * count)
    }
}
