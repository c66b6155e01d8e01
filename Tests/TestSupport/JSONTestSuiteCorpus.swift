import Foundation

/// Where the JSONTestSuite corpus is, and whether a run must have it.
///
/// The corpus lives outside the repository, at `<repo>/../shared/corpora/JSONTestSuite/test_parsing`:
/// this project's CI checks the repository out with `shared/` beside it, and the corpus is never
/// copied in. A fresh clone has no `shared/`, so without the corpus its tests are skipped with
/// ``skipText``; CI sets ``requiredVariable`` so that there a missing corpus is a failure, not a
/// skip nobody reads.
package enum JSONTestSuiteCorpus {
    /// Set to `1` (as .ci/run does), a missing corpus fails the tests instead of skipping them.
    package static let requiredVariable = "BRIDGE_INSPECTOR_REQUIRE_CORPORA"

    /// `<repo>/../shared/corpora/JSONTestSuite/test_parsing`.
    package static let location = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpora/JSONTestSuite/test_parsing")

    /// What `swift test` prints beside each skipped test (a test's `Comment`).
    package static let skipText = """
        skipped: the JSONTestSuite corpus is not at ../shared/corpora/JSONTestSuite/test_parsing beside the \
        repository (only this project's CI has it); set \(requiredVariable)=1 to make its absence a failure
        """

    /// The corpus's `.json` files at `directory`, sorted by name (none when it is not there).
    package static func fileNames(at directory: URL = location) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// Whether the corpus is at `directory`: it holds the suite's 300-odd parsing cases.
    package static func isPresent(at directory: URL) -> Bool {
        fileNames(at: directory).count > 300
    }

    /// Whether `environment` requires the corpus.
    package static func isRequired(_ environment: [String: String]) -> Bool {
        environment[requiredVariable] == "1"
    }

    /// Whether the corpus tests run: when the corpus is there, or when it is required (and then
    /// fail, saying where it was looked for). Otherwise they are skipped with ``skipText``.
    package static func shouldRun(at directory: URL = location, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        isPresent(at: directory) || isRequired(environment)
    }
}
