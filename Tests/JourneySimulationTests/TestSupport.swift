import BridgeCore
import Foundation
@testable import JourneySimulation
import Testing

// Helpers shared by the JourneySimulation tests. Waiting is always a bounded poll (`until`);
// scenarios in tests use delays of a few milliseconds.

/// The package's root directory (found from this file's path).
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `examples/<relative>` as a path.
func examplePath(_ relative: String) -> String {
    packageRoot.appendingPathComponent("examples").appendingPathComponent(relative).path
}

/// Parses a profile, failing the test with the error text when it does not parse.
func profile(_ json: String, file: String = "test-profile.json") throws -> HostProfile {
    try HostProfile.parse(json: json, file: file)
}

/// Parses a scenario, failing the test with the error text when it does not parse.
func scenario(_ json: String, file: String = "test-scenario.json") throws -> JourneyScenario {
    try JourneyScenario.parse(json: json, file: file)
}

/// The error text a profile gives, or `nil` when it parses.
func profileError(_ json: String, file: String = "p.json") -> String? {
    do {
        _ = try HostProfile.parse(json: json, file: file)
        return nil
    } catch {
        return error.description
    }
}

/// The error text a scenario gives, or `nil` when it parses.
func scenarioError(_ json: String, file: String = "s.json") -> String? {
    do {
        _ = try JourneyScenario.parse(json: json, file: file)
        return nil
    } catch {
        return error.description
    }
}

/// A scenario around the given steps (JSON text of the array's elements).
func steps(_ body: String, loop: Bool = false) -> String {
    "{\"name\": \"t\", \"loop\": \(loop), \"steps\": [\(body)]}"
}

extension SimulatedJourney {
    /// Received responses, in arrival order.
    var receivedResponses: [BridgeMessage] {
        entries.filter { $0.kind == .received && $0.message?.type == .response }.compactMap(\.message)
    }

    /// The received response with `correlationId`.
    func receivedResponse(to correlationId: String) -> BridgeMessage? {
        receivedResponses.first { $0.correlationId == correlationId }
    }

    /// The timeout entries.
    var timeouts: [JourneyLogEntry] { entries.filter { $0.kind == .timeout } }

    /// The text of every note.
    var notes: [String] { entries.filter { $0.kind == .note }.compactMap(\.text) }
}
