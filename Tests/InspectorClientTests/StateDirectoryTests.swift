import Foundation
import InspectorClient
import TestSupport
import Testing

@Suite("State kept between runs")
struct StateDirectoryTests {
    @Test("XDG_STATE_HOME names the directory when absolute; otherwise ~/.local/state")
    func directoryFromEnvironment() {
        #expect(StateDirectory(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/a"]).path == "/x/state/bridge-inspector")
        #expect(StateDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/a"]).path == "/home/a/.local/state/bridge-inspector")
        #expect(StateDirectory(environment: ["HOME": "/home/a"]).path == "/home/a/.local/state/bridge-inspector")
    }

    @Test("what is saved loads back; nothing saved loads as nil; the file is private to its user")
    func roundTrip() throws {
        let directory = try TemporaryDirectory(prefix: "bi-state")
        let root = directory.file("state")
        let state = StateDirectory(path: root + "/nested/bridge-inspector")
        #expect(try state.load([String].self, from: "events.json") == nil)
        try state.save(["a", "b"], as: "events.json")
        #expect(try state.load([String].self, from: "events.json") == ["a", "b"])
        try state.save(["c"], as: "events.json")
        #expect(try state.load([String].self, from: "events.json") == ["c"])
        let mode = try FileManager.default.attributesOfItem(atPath: state.file("events.json"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let directoryMode = try FileManager.default.attributesOfItem(atPath: state.path)[.posixPermissions] as? Int
        #expect(directoryMode == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(leftovers == ["events.json"])
    }

    @Test("a damaged file is reported with its path and what to do, and left as it is")
    func damagedFile() throws {
        let directory = try TemporaryDirectory(prefix: "bi-state")
        let root = directory.file("state")
        let state = StateDirectory(path: root)
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: state.file("rules.json")))
        #expect {
            try state.load([String].self, from: "rules.json")
        } throws: { error in
            let problem = error as? StateDirectory.Problem
            return problem?.path == state.file("rules.json") && problem?.description.contains("move it away") == true
        }
        #expect(try String(contentsOfFile: state.file("rules.json"), encoding: .utf8) == "{not json")
    }

    @Test("a directory that cannot be made is reported, not a crash")
    func unwritable() throws {
        let directory = try TemporaryDirectory(prefix: "bi-state")
        let root = directory.file("state")
        try Data("file".utf8).write(to: URL(fileURLWithPath: root))
        let state = StateDirectory(path: root + "/under-a-file")
        #expect(throws: StateDirectory.Problem.self) { try state.save(["a"], as: "x.json") }
    }
}
