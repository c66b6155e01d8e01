import BridgeCore
import Foundation
import InspectorAgent
import TestSupport

/// A host on the main actor with a recording journey and a running agent on a private socket:
/// the real peer for tests of the agent (InspectorAgentTests calls it `Fixture`) and of the
/// clients that attach to it (`InspectorSession`, `RawFrameStream` in InspectorClientTests).
///
/// ```swift
/// let agent = try LiveAgent { host in host.receive(text: LiveAgent.messageText(action: "nfc.read", id: "r-1")) }
/// defer { agent.stop() }
/// let session = try InspectorSession(socketPath: agent.socketPath, subscribe: true)   // on a thread of its own
/// ```
@MainActor
public final class LiveAgent {
    /// The private directory holding the socket; removed by ``stop()``.
    public let directory: String
    /// The agent's Unix socket.
    public let socketPath: String
    /// The host the agent serves.
    public let host: BridgeHost
    /// The journey attached to the host: what the host delivered.
    public let journey: RecordingJourneyTransport
    /// The running agent.
    public let agent: InspectorAgent
    /// The host's clock: a hold's time limit passes only when a test moves it, so no hold ends
    /// by itself while a test on a busy machine still checks it.
    public let clock = ManualClock()

    /// A fixed instant used as request timestamps.
    nonisolated public static let fixedMillis = 1_732_240_000_000

    /// The text of a message from the journey.
    nonisolated public static func messageText(type: String = "request", action: String, id: String, data: String = "{}") -> String {
        #"{"version":"1.0","correlationId":"\#(id)","type":"\#(type)","timestamp":\#(fixedMillis),"payload":{"action":"\#(action)","data":\#(data)}}"#
    }

    /// The agent's default limits, except time limits longer than the whole suite: the main actor
    /// is shared by tests running in parallel, and on a busy two-core machine a test on it can
    /// wait minutes between two steps (a 120 s limit was seen to pass mid-test); tests that are
    /// about these time limits set them explicitly.
    nonisolated public static func limits() -> AgentLimits {
        var limits = AgentLimits()
        limits.handshakeSeconds = 3600
        limits.stalledClientSeconds = 3600
        return limits
    }

    /// `prepare` runs on the host before the agent starts (to test the initial snapshot).
    /// With `tcp` the agent also listens over TCP (see `InspectorTCPOptions`).
    public init(
        limits: AgentLimits = LiveAgent.limits(), name: String = "test-host", tcp: InspectorTCPOptions? = nil,
        prepare: (BridgeHost) -> Void = { _ in }
    ) throws {
        directory = try makeTemporaryDirectory()
        socketPath = directory + "/a.sock"
        host = BridgeHost(hostVersion: "2.3.4")
        host.clock = clock
        journey = RecordingJourneyTransport()
        host.attach(journey)
        prepare(host)
        do {
            agent = try host.startInspector(name: name, socketPath: socketPath, limits: limits, tcp: tcp)
        } catch {
            removeDirectory(directory)
            throw error
        }
    }

    /// Stops the agent and removes its directory.
    public func stop() {
        agent.stop()
        removeDirectory(directory)
    }

    /// Makes the capture slot wait for `complete(_:)` (the UI-driven flow).
    public func makeSlotWaitForCompletion(_ kind: CaptureCapability.Kind) {
        let slot = host.slot(kind)
        slot.handler = { [weak slot] _ in
            await slot?.awaitCompletion() ?? .cancelled(reason: "slot gone")
        }
    }

    /// Has the journey send `text`.
    public func receive(_ text: String) {
        host.receive(text: text)
    }

    /// The messages the journey got, as decoded messages.
    public var delivered: [BridgeMessage] { journey.messages }
}
