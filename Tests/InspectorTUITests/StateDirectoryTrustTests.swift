import BridgeCore
import Foundation
import InspectorClient
@testable import InspectorProtocol
@testable import InspectorTUI
import SocketSupport
import TerminalUI
import Testing

/// The state directory and rules files are trusted only when no other user can change them
/// (issue 24, point 9): from a world-writable `$XDG_STATE_HOME/bridge-inspector` the inspector
/// loaded planted reply rules and saved them back without a word.
@Suite("What the inspector trusts: its state directory and rules files")
struct StateDirectoryTrustTests {
    static let planted = #"{"version": 1, "rules": [{"name": "planted", "action": "*", "data": {"uid": "attacker"}}]}"#

    /// A fresh folder under the temporary directory, removed by the caller.
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "bi-trust-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    @Test("A state directory others can write to (0777) is neither loaded nor saved, and the note says why and what to run")
    func worldWritableRefused() throws {
        let base = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let state = StateDirectory(path: base + "/bridge-inspector")
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: false)
        try Data(Self.planted.utf8).write(to: URL(fileURLWithPath: state.file(InspectorStateStore.rulesFile)))
        #expect(chmod(state.path, 0o777) == 0)

        var model = journeyModel()
        var store = InspectorStateStore(directory: state)
        store.load(into: &model)
        #expect(model.rules.isEmpty, "planted rules were loaded")
        #expect(model.flash?.isError == true)
        let note = model.flash?.text ?? ""
        #expect(note.contains("has mode 0777") && note.contains("chmod 700 \(state.path)") && note.contains("nothing is saved"), "\(note)")

        // A rule made now is not written into that directory.
        model.addRule(ReplyRule(action: "nfc.read", response: .init()))
        #expect(store.saveChanges(of: model) == nil)
        #expect(try String(contentsOfFile: state.file(InspectorStateStore.rulesFile), encoding: .utf8) == Self.planted)
        // Nor by the directory's own save, whoever calls it.
        #expect(throws: StateDirectory.Problem.self) { try state.save(["x"], as: "other.json") }
        #expect(!FileManager.default.fileExists(atPath: state.file("other.json")))
    }

    @Test("A private state directory is loaded and saved as before; a new one is made 0700")
    func privateTrusted() throws {
        let base = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let state = StateDirectory(path: base + "/bridge-inspector")
        var model = journeyModel()
        var store = InspectorStateStore(directory: state)
        store.load(into: &model)
        model.addRule(ReplyRule(action: "nfc.read", response: .init()))
        #expect(store.saveChanges(of: model) == nil)
        let status = try #require(PrivateDirectory.status(of: state.path, followingLinks: true))
        #expect(status.mode & 0o777 == 0o700)
        // Group-readable (0755, as `mkdir -p` makes it) is trusted: the files in it are 0600.
        #expect(chmod(state.path, 0o755) == 0)
        var again = journeyModel()
        var second = InspectorStateStore(directory: state)
        second.load(into: &again)
        #expect(again.rules.rules.map(\.action) == ["nfc.read"])
    }

    @Test("The owner check: another user's directory is refused with the way out; ours with group write too")
    func ownerCheck() {
        let path = "/home/me/.local/state/bridge-inspector"
        let theirs = StateDirectory.trustProblem(path: path, status: .init(owner: 4242, mode: 0o700), userID: 1000)
        #expect(theirs?.reason.contains("owned by uid 4242, not by you (uid 1000)") == true, "\(String(describing: theirs))")
        #expect(theirs?.reason.contains("XDG_STATE_HOME") == true)
        #expect(StateDirectory.trustProblem(path: path, status: .init(owner: 1000, mode: 0o700), userID: 1000) == nil)
        #expect(StateDirectory.trustProblem(path: path, status: .init(owner: 1000, mode: 0o755), userID: 1000) == nil)
        #expect(StateDirectory.trustProblem(path: path, status: .init(owner: 1000, mode: 0o770), userID: 1000)?.reason.contains("mode 0770") == true)
        let file = StateDirectory.trustProblem(path: path, status: .init(notADirectory: "a regular file", owner: 1000, mode: 0o600), userID: 1000)
        #expect(file?.reason.contains("is a regular file, not a directory") == true)
    }

    @Test("A rules file others can change is warned about: its mode, its folder's, or another user as its owner")
    func rulesFileWarning() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/rules.json"
        try Data(Self.planted.utf8).write(to: URL(fileURLWithPath: file))
        #expect(chmod(file, 0o644) == 0)
        #expect(ReplyRuleBook.othersCanChangeWarning(file: file) == nil)
        #expect(chmod(file, 0o666) == 0)
        let warning = ReplyRuleBook.othersCanChangeWarning(file: file) ?? ""
        #expect(warning.contains("mode 0666") && warning.contains("chmod go-w \(file)"), "\(warning)")
        #expect(chmod(file, 0o600) == 0)
        #expect(chmod(folder, 0o777) == 0)
        let folderWarning = ReplyRuleBook.othersCanChangeWarning(file: file) ?? ""
        #expect(folderWarning.contains("folder") && folderWarning.contains("chmod go-w \(folder)"), "\(folderWarning)")
        // A sticky folder (as /tmp) does not let others replace our file.
        #expect(chmod(folder, 0o1777) == 0)
        #expect(ReplyRuleBook.othersCanChangeWarning(file: file) == nil)
        #expect(chmod(folder, 0o700) == 0)

        let theirs = ReplyRuleBook.othersCanChangeWarning(
            file: "team/rules.json", status: .init(notADirectory: "a regular file", owner: 4242, mode: 0o644),
            folder: .init(owner: 4242, mode: 0o755), userID: 1000)
        #expect(theirs?.contains("belongs to uid 4242") == true, "\(String(describing: theirs))")
        let roots = ReplyRuleBook.othersCanChangeWarning(
            file: "/etc/rules.json", status: .init(notADirectory: "a regular file", owner: 0, mode: 0o644),
            folder: .init(owner: 0, mode: 0o755), userID: 1000)
        #expect(roots == nil)
    }

    @Test("The commands in these notes take a path with spaces or quotes as one shell word")
    func commandsQuoteThePath() {
        let path = "/home/a b/it's/bridge-inspector"
        let open = StateDirectory.trustProblem(path: path, status: .init(owner: 1000, mode: 0o777), userID: 1000)
        #expect(open?.reason.contains(#"chmod 700 '/home/a b/it'\''s/bridge-inspector'"#) == true, "\(String(describing: open))")
        let file = StateDirectory.trustProblem(path: path, status: .init(notADirectory: "a regular file", owner: 1000, mode: 0o600), userID: 1000)
        #expect(file?.reason.contains(#"mv '/home/a b/it'\''s/bridge-inspector' '/home/a b/it'\''s/bridge-inspector.old'"#) == true, "\(String(describing: file))")
        let rules = ReplyRuleBook.othersCanChangeWarning(
            file: "my rules/r.json", status: .init(notADirectory: "a regular file", owner: 1000, mode: 0o666),
            folder: .init(owner: 1000, mode: 0o700), userID: 1000)
        #expect(rules?.hasSuffix("Run: chmod go-w 'my rules/r.json'") == true, "\(String(describing: rules))")
    }
}
