import Foundation
import TestSupport
import Testing

/// Issue 24, point 11: `replay --same-id` (and `inject --id`) of a request whose id the host
/// still has outstanding used to print the message and exit 0, although the host refused the
/// duplicate (lastError "Duplicate correlationId ...") and nothing would ever answer it.
@Suite("Scripting: a request with an id still outstanding is refused, not reported sent", .serialized)
struct ScriptingDuplicateIdTests {
    let binary: String

    init() throws {
        binary = try requireBridgeInspectorBinary()
    }

    @Test("replay --same-id and inject --id of a pending request exit 2, say what to do instead, and send nothing")
    func pendingIdRefused() async throws {
        let host = try await ScriptedHost(binary: binary, scenario: replayScenario)
        defer { host.stop() }
        #expect(await host.waitForPending { $0.contains("nfc-1") })
        let original = try #require(try host.state().messages.first { $0.message.correlationId == "nfc-1" && $0.direction == .received })

        for wait in [["--no-wait"], []] {
            let replayed = try await host.run(["replay", "\(original.seq)", "--same-id", "--timeout", "5"] + wait, binary: binary)
            #expect(replayed.status == 2, "\(wait): \(replayed)")
            #expect(replayed.stdout.isEmpty, "\(wait): \(replayed)")
            #expect(replayed.stderr.contains("nfc-1: a request with this correlation id is still outstanding (it waits in pendingRequests)"), "\(replayed)")
            #expect(replayed.stderr.contains("replay it without --same-id"), "\(replayed)")
            #expect(replayed.stderr.contains("`bridge-inspector respond nfc-1`"), "\(replayed)")
        }
        let injected = try await host.run(["inject", "request", "nfc.read", "--id", "nfc-1", "--no-wait"], binary: binary)
        #expect(injected.status == 2, "\(injected)")
        #expect(injected.stderr.contains("choose another --id"), "\(injected)")

        // Nothing reached the host: no duplicate was logged or refused.
        let state = try host.state()
        #expect(state.messages.filter { $0.message.correlationId == "nfc-1" && $0.direction == .received }.count == 1)
        #expect(state.lastError?.text?.contains("Duplicate correlationId") != true, "\(String(describing: state.lastError))")

        // A new id is still fine, and once answered the same id may be replayed.
        let fresh = try await host.run(["replay", "\(original.seq)", "--no-wait"], binary: binary)
        #expect(fresh.status == 0, "\(fresh)")
        #expect(try await host.run(["respond", "nfc-1", "--quiet"], binary: binary).status == 0)
        let again = try await host.run(["replay", "\(original.seq)", "--same-id", "--no-wait"], binary: binary)
        #expect(again.status == 0, "\(again)")
    }
}
