import Foundation
import TestSupport
import Testing

/// One run of the built `bridge-inspector-bench` with `arguments` (which include `--json`): the
/// JSON object it printed on stdout and its stderr (the table). Records an issue when the run
/// fails or stdout is not one JSON object.
func benchJSONRun(_ arguments: [String]) async throws -> (object: [String: Any], errors: String) {
    let binary = try #require(builtProduct("bridge-inspector-bench"), "build the bridge-inspector-bench product first (swift build)")
    // Waiting for the run blocks, so it happens on a thread of its own, never on the
    // cooperative pool that every other test shares.
    let run = try await onThread { try SpawnedProcess.run([binary] + arguments, timeout: 120) }
    #expect(run.status == 0, "exit status \(run.status.map(String.init) ?? "none (killed after 120 s)"); stderr:\n\(run.errors)")
    let object = try #require(
        try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "stdout is not one JSON object: \(run.output)")
    return (object, run.errors)
}
