import BridgeCore
import Foundation
@testable import JourneySimulation
import TestSupport
import Testing

// Helpers shared by the JourneySimulation tests. Journeys and profiles run on a `ManualClock`:
// their delays, waits and timeouts pass only when a test moves the clock, so no test waits for
// one in real time and none can race one. Waiting for what a woken task does is a bounded poll.

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

/// Runs `scenario` on `journey` to its end, moving `clock` (the journey's and its host's) on to
/// each deadline that falls within `horizon` of the clock's time, as soon as one is there: a
/// profile's delay, a `wait` step, a timeout the test means to pass. A deadline further off is
/// never reached, so a test picks a horizon shorter than every timeout it does not mean to pass.
/// Returns whether the scenario ended; waits for it (in real time) at most `timeout` between two
/// moves of the clock: long, because on a loaded two-core machine the journey's task can wait
/// behind every other test for the pool's two threads (60 s was seen to pass), and a scenario
/// that goes on ends the wait at once.
@MainActor
func run(
    _ scenario: JourneyScenario, on journey: SimulatedJourney, moving clock: ManualClock, within horizon: Duration,
    timeout: Duration = .seconds(600)
) async -> Bool {
    let finished = Finished()
    let task = Task { @MainActor in
        await journey.run(scenario)
        finished.value = true
    }
    func nextDue() -> ManualClock.Instant? {
        guard let next = clock.nextDeadline, clock.now.duration(to: next) <= horizon else { return nil }
        return next
    }
    while true {
        let moved = await waitUntil(timeout: timeout, every: .milliseconds(1)) { finished.value || nextDue() != nil }
        if finished.value { return true }
        guard moved else {
            journey.stop()
            await task.value
            return false
        }
        // Work already scheduled (a handler just started) goes to sleep before the clock moves.
        for _ in 0..<10 { await Task.yield() }
        if let next = nextDue() { clock.advance(to: next) }
    }
}

/// Whether a scenario run by ``run(_:on:moving:within:timeout:)`` has ended.
@MainActor
private final class Finished {
    var value = false
}
