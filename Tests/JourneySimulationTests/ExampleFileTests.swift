import BridgeCore
import Foundation
@testable import JourneySimulation
import TestSupport
import Testing

/// Every file under examples/ loads, the demo files are the built-in demo, and the demo and
/// example scenarios do what their descriptions promise.
@MainActor
@Suite("Example files")
struct ExampleFileTests {
    static func files(in directory: String) throws -> [String] {
        let url = packageRoot.appendingPathComponent("examples").appendingPathComponent(directory)
        return try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { $0.hasSuffix(".json") }.sorted().map { url.appendingPathComponent($0).path }
    }

    @Test("every profile under examples/profiles loads")
    func profilesLoad() throws {
        let paths = try Self.files(in: "profiles")
        #expect(paths.count >= 2)
        for path in paths {
            do {
                _ = try HostProfile.load(path: path)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("every scenario under examples/scenarios loads")
    func scenariosLoad() throws {
        let paths = try Self.files(in: "scenarios")
        #expect(paths.count >= 3)
        for path in paths {
            do {
                _ = try JourneyScenario.load(path: path)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("every doctor scenario and profile under examples/scenarios/doctor loads; the scenarios end (the host keeps the problem)")
    func doctorFilesLoad() throws {
        let profiles = try Self.files(in: "scenarios/doctor/profiles")
        let scenarios = try Self.files(in: "scenarios/doctor")
        #expect(profiles.count == 4)
        #expect(scenarios.count == 15)
        for path in profiles {
            do { _ = try HostProfile.load(path: path) } catch { Issue.record("\(error)") }
        }
        for path in scenarios {
            do {
                let scenario = try JourneyScenario.load(path: path)
                #expect(!scenario.loop, "\(path) runs once")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("examples/*/demo.json are exactly the built-in demo")
    func demoFilesMatchBuiltIn() throws {
        let profileText = try String(contentsOfFile: examplePath("profiles/demo.json"), encoding: .utf8)
        let scenarioText = try String(contentsOfFile: examplePath("scenarios/demo.json"), encoding: .utf8)
        #expect(profileText == BuiltInDemo.profileJSON)
        #expect(scenarioText == BuiltInDemo.scenarioJSON)
        #expect(try HostProfile.load(path: examplePath("profiles/demo.json")) == BuiltInDemo.profile)
        #expect(try JourneyScenario.load(path: examplePath("scenarios/demo.json")) == BuiltInDemo.scenario)
    }

    @Test("the demo profile has what the demo needs")
    func demoProfile() {
        let profile = BuiltInDemo.profile
        #expect(profile.name == "demo")
        #expect(profile.document.handler == .manual)
        #expect(profile.selfie.handler == .none)
        let behaviours = Dictionary(uniqueKeysWithValues: profile.customCapabilities.map { ($0.id, $0.behaviour) })
        #expect(behaviours["nfc.read"] == .pending)
        guard case .respond(.success, _, _) = behaviours["device.info"] else {
            Issue.record("device.info should answer with success")
            return
        }
    }

    /// The demo loops forever; each pass leaves three requests pending (selfie, nfc.read and an
    /// unknown action). The host warns above 50 pending, so with at least 16 full passes before
    /// the 51st pending request, the warning cannot appear in the first minutes.
    @Test("the demo is paced for a person and trips the pending-leak warning only late (after 9 minutes or more)")
    func demoPacing() {
        let scenario = BuiltInDemo.scenario
        #expect(scenario.loop)
        let profile = BuiltInDemo.profile
        let handled = Set(profile.customCapabilities.filter { $0.behaviour != .pending }.map(\.id))
            .union(["capability.query", "camera.document.capture"])
        let pendingPerPass = scenario.requestsPerPass.filter { !handled.contains($0.key) }.values.reduce(0, +)
        #expect(pendingPerPass == 3)
        let passesBeforeWarning = (BridgeHost.defaultPendingRequestWarningThreshold + 1 + pendingPerPass - 1) / pendingPerPass - 1
        let earliestWarning = Duration.milliseconds(passesBeforeWarning * scenario.passWaitMs)
        #expect(earliestWarning >= .seconds(9 * 60))
        // A few messages a second: no pass is faster than half a minute.
        #expect(scenario.passWaitMs >= 30_000)
        let messagesPerPass = scenario.requestsPerPass.values.reduce(0, +)
        #expect(Double(messagesPerPass) / (Double(scenario.passWaitMs) / 1000) < 5)
    }

    @Test("the demo's first moments: capabilities, a held capture, BUSY, pending, a malformed message")
    func demoStart() async throws {
        let clock = ManualClock()
        let host = BuiltInDemo.profile.makeHost(clock: clock)
        let journey = SimulatedJourney(host: host, clock: clock)
        host.sendReadyEvent()
        // Run only the first part of a pass, with the waits shortened.
        var steps = BuiltInDemo.scenario.steps.prefix { if case .repeat = $0 { return false } else { return true } }.map { step -> ScenarioStep in
            if case .wait = step { return .wait(milliseconds: 1) }
            return step
        }
        steps.append(.wait(milliseconds: 1))
        // The waits and the profile's delays (300 ms at most) pass; no timeout (2 s or more) does.
        #expect(await run(JourneyScenario(name: "demo-start", steps: steps), on: journey, moving: clock, within: .milliseconds(300)))
        #expect(journey.response(forLabel: "capabilities")?.payload.status == .success)
        #expect(host.documentCapture.activeRequest?.correlationId == journey.correlationId(forLabel: "documentFront"))
        #expect(journey.response(forLabel: "documentBack")?.payload.error?.code == "BUSY")
        #expect(journey.response(forLabel: "device")?.payload.status == .success)
        #expect(journey.response(forLabel: "location")?.payload.error?.code == "PERMISSION_DENIED")
        #expect(host.pendingRequests.map(\.payload.action) == ["camera.selfie.capture", "nfc.read", "wallet.addPass"])
        #expect(host.lastError?.hasPrefix("Failed to decode message: invalid JSON at line 1") == true)
    }

    @Test("capture-flow with the minimal profile ends, with BUSY, successes, pending and timeouts")
    func captureFlow() async throws {
        let clock = ManualClock()
        let host = try HostProfile.load(path: examplePath("profiles/minimal.json")).makeHost(clock: clock)
        let journey = SimulatedJourney(host: host, clock: clock)
        let scenario = try JourneyScenario.load(path: examplePath("scenarios/capture-flow.json"))
        #expect(!scenario.loop)
        // The file as it is, on a clock the test moves: the profile's delays, the waits and the
        // selfie and NFC requests' 1 s limits pass, whose passing is what the file shows; the
        // other limits (2 s and more, counted from sends within the first second) never do,
        // however slow the machine.
        #expect(await run(scenario, on: journey, moving: clock, within: .seconds(1)))
        #expect(journey.response(forLabel: "capabilities")?.payload.status == .success)
        #expect(journey.response(forLabel: "backTooSoon")?.payload.error?.code == "BUSY")
        #expect(journey.response(forLabel: "front")?.payload.status == .success)
        #expect(journey.response(forLabel: "back")?.payload.status == .success)
        #expect(journey.response(forLabel: "device1")?.payload.status == .success)
        #expect(journey.response(forLabel: "device2")?.payload.status == .success)
        #expect(journey.response(forLabel: "selfie") == nil)
        #expect(journey.response(forLabel: "nfc") == nil)
        #expect(Set(journey.timeouts.compactMap(\.label)) == ["selfie", "nfc"])
        #expect(journey.timeouts.count == 2)
        #expect(host.pendingRequests.map(\.payload.action) == ["camera.selfie.capture", "nfc.read"])
        #expect(host.lastError == "Failed to decode message: missing required field 'correlationId'")
        #expect(journey.notes.last == #"scenario "capture-flow" finished"#)
    }

    @Test("malformed-input leaves a decoding error, an unknown-id error and a duplicate-id error behind")
    func malformedInput() async throws {
        let clock = ManualClock()
        let host = try HostProfile.load(path: examplePath("profiles/minimal.json")).makeHost(clock: clock)
        let journey = SimulatedJourney(host: host, clock: clock)
        var errors: [String] = []
        let collector = OrderCollector()
        let token = host.addObserver { change in
            if case .lastError(let text?, _) = change { collector.append(text) }
        }
        defer { host.removeObserver(token) }
        var scenario = try JourneyScenario.load(path: examplePath("scenarios/malformed-input.json"))
        scenario.steps = scenario.steps.map { if case .wait = $0 { return .wait(milliseconds: 1) } else { return $0 } }
        #expect(await run(scenario, on: journey, moving: clock, within: .milliseconds(1)))
        errors = collector.values
        #expect(errors.count == 8)
        #expect(errors[0].hasPrefix("Failed to decode message: invalid JSON at line 1, column"))
        #expect(errors[1] == "Failed to decode message: invalid JSON at line 1, column 1: expected a value, found 't' (did you mean true?)")
        #expect(errors[2] == "Failed to decode message: missing required field 'correlationId'")
        #expect(errors[3].hasPrefix("Failed to decode message: field 'type' must be one of"))
        #expect(errors[4] == "Failed to decode message: field 'timestamp' must be a number")
        #expect(errors[5] == "Failed to decode message: missing required field 'payload.action'")
        #expect(errors[6].hasPrefix("Received a response for unknown correlationId 'never-sent'"))
        #expect(errors[7].hasPrefix("Duplicate correlationId 'duplicate-1'"))
    }
}
