import Foundation
import TestSupport
import Testing

/// `bridge-inspector --rules FILE` (issue 13): the interactive inspector loads a rules file
/// shared as auto-respond's; a bad file is refused before the screen starts, saying which file,
/// where in it, and what to do (exit 64).
@Suite("inspect --rules")
struct InspectRulesFileTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("A bad rules file is refused before anything else, with the file, the place and what to do; the default command and demo take --rules too")
    func badFileRefused() async throws {
        let directory = try TemporaryDirectory()
        let socket = directory.file("none.sock")
        let bad = directory.file("team-rules.json")
        try #"{"rules": [{"action": "nfc.read", "status": "fine"}]}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        for command in [["inspect", "--socket", socket], ["--socket", socket], ["demo", "--socket", socket]] {
            let result = try await runCLI(command + ["--rules", bad], binary: binary)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("Error: --rules \(bad): rules[0].status: status must be"), "\(result)")
            #expect(result.stderr.contains("hint: fix the file"), "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: socket), "the demo host was not started")
        }
        let missing = try await runCLI(["inspect", "--rules", directory.file("none.json"), "--socket", socket], binary: binary)
        #expect(missing.status == 64, "\(missing)")
        #expect(missing.stderr.contains("--rules \(directory.file("none.json")): no such file"), "\(missing)")
        // A good file passes the check: what stops the inspector here is the missing terminal.
        let good = directory.file("good.json")
        try #"[{"action": "nfc.read", "times": 1}]"#.write(toFile: good, atomically: true, encoding: .utf8)
        let fine = try await runCLI(["inspect", "--rules", good, "--socket", socket], binary: binary)
        #expect(!fine.stderr.contains("--rules"), "\(fine)")
    }

    @Test("--read-only with --rules is a usage error: a read-only inspector answers nothing")
    func readOnlyRefusesRules() async throws {
        let directory = try TemporaryDirectory()
        let rules = directory.file("rules.json")
        try #"[{"action": "nfc.read", "times": 1}]"#.write(toFile: rules, atomically: true, encoding: .utf8)
        for command in [["inspect"], []] {
            let result = try await runCLI(command + ["--read-only", "--rules", rules, "--socket", directory.file("none.sock")], binary: binary)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("--rules and --read-only cannot be used together"), "\(result)")
        }
    }
}
