import Foundation
import Testing

/// Issue 13, trap 8: errors were prefixed `Error:` by swift-argument-parser and `error:` by us.
@Suite("Errors start with Error:")
struct ErrorPrefixTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("One of ours (a bad filter) and one of swift-argument-parser's (an unknown option) both start with Error:")
    func sameForBoth() async throws {
        let ours = try await runCLI(["tail", "--filter", "type:request |", "--socket", "/nonexistent/h.sock"], binary: binary)
        #expect(ours.status == 64)
        #expect(ours.stderr.hasPrefix("Error: --filter '|' at column 14: '|' needs a term on each side\n"), "\(ours)")
        let parser = try await runCLI(["tail", "--no-such-option"], binary: binary)
        #expect(parser.status == 64)
        #expect(parser.stderr.hasPrefix("Error: "), "\(parser)")
        let noHost = try await runCLI(["snapshot", "--socket", "/nonexistent/h.sock"], binary: binary)
        #expect(noHost.status == 3)
        #expect(noHost.stderr.hasPrefix("Error: "), "\(noHost)")
    }

    @Test("No message in the CLI's sources writes the prefix itself: StandardStreams.printFailure adds it")
    func onePlace() throws {
        let sources = packageRoot.appendingPathComponent("Sources/BridgeInspectorCLI")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files where (file as NSString).lastPathComponent != "StandardStreams.swift" {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("\"error: ") || line.contains("\"Error: ") {
                Issue.record("\(file):\(number + 1) writes the error prefix itself; use StandardStreams.printFailure: \(line)")
            }
        }
    }
}
