import BridgeCore
import Foundation
import TestSupport
import Testing

/// Every parsing case of Nicolas Seriot's JSONTestSuite (MIT, see its LICENSE beside it), run
/// through the host's JSON layer and, wrapped in a message's `payload.data`, through the codec
/// `BridgeHost.receive` uses. `y_` files must be accepted, `n_` files refused with a reason, `i_`
/// files (the implementation's choice) never crash; and the two paths always agree.
/// Page: Security, "Incoming Message Decoding"; docs/bridge-protocol.md, section 2, "One JSON rule".
///
/// The corpus is not in the repository (see ``JSONTestSuiteCorpus``): on a fresh clone without
/// it these tests are skipped, and `swift test` says so beside their names; under CI
/// (`BRIDGE_INSPECTOR_REQUIRE_CORPORA=1`, set by .ci/run) a missing corpus fails them.
@Suite(
    "JSONTestSuite corpus (Security: Incoming Message Decoding)",
    .enabled(if: JSONTestSuiteCorpus.shouldRun(), JSONTestSuiteCorpus.skipNote))
struct JSONTestSuiteTests {
    static let corpus = JSONTestSuiteCorpus.location

    static let prefix = #"{"version":"1.0","correlationId":"c","type":"event","timestamp":1,"payload":{"action":"x","data":{"v":"#
    static let suffix = "}}}"

    /// What went wrong with one file, or `nil`.
    static func check(name: String, bytes: [UInt8]) -> String? {
        let problem = JSONSyntaxCheck.firstProblem(in: bytes)
        let value = JSONParser.parse(bytes)
        guard (problem == nil) == (value != nil) else {
            return "syntax check (\(problem?.description ?? "accepts")) and parser (\(value == nil ? "refuses" : "accepts")) disagree"
        }
        // One pass: the parser's own refusal is the syntax check's, word for word.
        if case .failure(let refusal) = Result(catching: { () throws(JSONSyntaxCheck.Problem) in try JSONParser.read(bytes) }), refusal != problem {
            return "the parser refuses with \(refusal), the syntax check with \(problem?.description ?? "nothing")"
        }
        if name.hasPrefix("y_"), let problem { return "valid JSON refused: \(problem)" }
        if name.hasPrefix("n_") {
            guard let problem else { return "invalid JSON accepted" }
            if problem.reason.isEmpty { return "refused without a reason" }
        }
        // JSONDecoder, the reference, reads the parsed value (re-encoded) as the parser did.
        if let value {
            guard let encoded = try? JSONEncoder().encode(value), let again = try? JSONDecoder().decode(JSONValue.self, from: encoded) else {
                return "JSONDecoder cannot read the parsed value back"
            }
            if again != value { return "JSONDecoder reads \(again), the parser \(value)" }
        }
        // Inside a message, through the codec: the same verdict and the same value.
        let wrapped = Data(Array(prefix.utf8) + bytes + Array(suffix.utf8))
        switch (BridgeMessageCodec().decode(wrapped), value) {
        case (.success(let message), let value?):
            if message.payload.data?["v"] != value { return "the message's data is \(String(describing: message.payload.data)), not \(value)" }
        case (.success, nil):
            return "refused alone but accepted inside a message"
        case (.failure(let failure), let value?):
            // Only depth can tell them apart: the message adds three levels.
            if !failure.reason.hasSuffix("nesting is deeper than 100 levels") { return "accepted alone (\(value)) but refused inside a message: \(failure)" }
        case (.failure(let failure), nil):
            if !failure.reason.hasPrefix("invalid JSON at line ") { return "refused inside a message without saying where: \(failure)" }
        }
        return nil
    }

    @Test("y_ accepted, n_ refused with a reason, i_ never crash, and every path agrees")
    func wholeCorpus() throws {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)) ?? []
        let cases = files.filter { $0.hasSuffix(".json") }.sorted()
        guard cases.count > 300 else {
            Issue.record("the JSONTestSuite corpus is missing at \(Self.corpus.path), and \(JSONTestSuiteCorpus.requiredVariable)=1 requires it: clone the shared corpora beside the repository (CI does)")
            return
        }
        var inputs: [(String, [UInt8])] = []
        for name in cases {
            inputs.append((name, try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent(name)))))
        }
        let loaded = inputs
        // On a 512 KiB stack, so an unbounded recursion crashes here.
        let failures = onSmallStack { loaded.compactMap { name, bytes in Self.check(name: name, bytes: bytes).map { "\(name): \($0)" } } }
        #expect(failures == [])
        #expect(cases.contains { $0.hasPrefix("y_") } && cases.contains { $0.hasPrefix("n_") } && cases.contains { $0.hasPrefix("i_") })
    }

    @Test("100,000 opening arrays and 500 nested arrays are refused by depth, with the limit named", arguments: [
        "n_structure_100000_opening_arrays.json", "i_structure_500_nested_arrays.json",
    ])
    func deepFiles(name: String) throws {
        let url = Self.corpus.appendingPathComponent(name)
        guard let bytes = try? [UInt8](Data(contentsOf: url)) else {
            Issue.record("the JSONTestSuite corpus is missing at \(Self.corpus.path), and \(JSONTestSuiteCorpus.requiredVariable)=1 requires it: clone the shared corpora beside the repository (CI does)")
            return
        }
        let reasons = onSmallStack {
            [
                JSONSyntaxCheck.firstProblem(in: bytes)?.description ?? "accepted",
                BridgeMessageCodec().decode(Data(Array(Self.prefix.utf8) + bytes + Array(Self.suffix.utf8))).failure?.reason ?? "accepted",
            ]
        }
        #expect(reasons == [
            "line 1, column 101: nesting is deeper than 100 levels",
            "invalid JSON at line 1, column \(Self.prefix.utf8.count + 98): nesting is deeper than 100 levels",
        ])
    }
}

extension JSONTestSuiteCorpus {
    /// What `swift test` prints beside each skipped test.
    static let skipNote = Comment(rawValue: skipText)
}

/// Issue 24, point 10: `swift test` passes on a fresh clone without the corpus, and CI, which
/// has it, cannot lose it silently.
@Suite("JSONTestSuite corpus: skipped on a fresh clone, required under CI")
struct JSONTestSuiteCorpusTests {
    @Test("without the corpus the tests are skipped, unless BRIDGE_INSPECTOR_REQUIRE_CORPORA=1 makes them run (and fail)")
    func absentCorpus() throws {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-corpus-\(UUID().uuidString)")
        #expect(!JSONTestSuiteCorpus.isPresent(at: nowhere))
        #expect(!JSONTestSuiteCorpus.shouldRun(at: nowhere, environment: [:]))
        #expect(!JSONTestSuiteCorpus.shouldRun(at: nowhere, environment: [JSONTestSuiteCorpus.requiredVariable: "0"]))
        #expect(JSONTestSuiteCorpus.shouldRun(at: nowhere, environment: [JSONTestSuiteCorpus.requiredVariable: "1"]))
    }

    @Test("a folder with too few cases is not the corpus")
    func partialCorpus() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("partial-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 0..<10 { try Data("[]".utf8).write(to: directory.appendingPathComponent("y_\(index).json")) }
        #expect(!JSONTestSuiteCorpus.shouldRun(at: directory, environment: [:]))
    }

    @Test(".ci/run requires the corpus, so CI fails rather than skips when it is missing")
    func ciRequiresCorpus() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let run = try String(contentsOf: repository.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(run.contains("export \(JSONTestSuiteCorpus.requiredVariable)=1"))
    }
}
