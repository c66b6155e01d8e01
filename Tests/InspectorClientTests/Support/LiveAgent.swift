import BridgeCore
import Foundation
import InspectorAgent
import TestSupport

/// A host on the main actor with a recording journey and a running agent on a private socket:
/// the real peer for the client's tests of ``InspectorSession`` and ``RawFrameStream``.
///
/// The client's own logic (the handshake, framing, failures) is tested without a socket on
/// `ClientConnectionStateMachine`; this fixture is for what only a live agent shows (commands
/// carried out, frames recorded byte for byte).
@MainActor
final class LiveAgent {
    let directory: String
    let socketPath: String
    let host: BridgeHost
    let journey: RecordingJourneyTransport
    let agent: InspectorAgent

    /// A fixed instant used as request timestamps.
    static let fixedMillis = 1_732_240_000_000

    /// The text of a message from the journey.
    static func messageText(type: String = "request", action: String, id: String, data: String = "{}") -> String {
        #"{"version":"1.0","correlationId":"\#(id)","type":"\#(type)","timestamp":\#(fixedMillis),"payload":{"action":"\#(action)","data":\#(data)}}"#
    }

    /// `prepare` runs on the host before the agent starts (to test the initial snapshot).
    ///
    /// The agent's time limits are longer than the whole suite: the main actor is shared by
    /// tests running in parallel, and on a busy two-core machine a test on it can wait minutes
    /// between two steps. No test here is about those limits.
    init(prepare: (BridgeHost) -> Void = { _ in }) throws {
        directory = try makeTemporaryDirectory()
        socketPath = directory + "/a.sock"
        host = BridgeHost(hostVersion: "2.3.4")
        journey = RecordingJourneyTransport()
        host.attach(journey)
        prepare(host)
        var limits = AgentLimits()
        limits.handshakeSeconds = 3600
        limits.stalledClientSeconds = 3600
        do {
            agent = try host.startInspector(name: "test-host", socketPath: socketPath, limits: limits)
        } catch {
            removeDirectory(directory)
            throw error
        }
    }

    func stop() {
        agent.stop()
        removeDirectory(directory)
    }

    /// Makes the capture slot wait for `complete(_:)` (the UI-driven flow).
    func makeSlotWaitForCompletion(_ kind: CaptureCapability.Kind) {
        let slot = host.slot(kind)
        slot.handler = { [weak slot] _ in
            await slot?.awaitCompletion() ?? .cancelled(reason: "slot gone")
        }
    }

    /// Has the journey send `text`.
    func receive(_ text: String) {
        host.receive(text: text)
    }

    /// The messages the journey got, as decoded messages.
    var delivered: [BridgeMessage] { journey.messages }
}
