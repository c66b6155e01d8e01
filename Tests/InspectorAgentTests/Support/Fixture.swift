#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BridgeCore
import Foundation
@testable import InspectorAgent
import SocketSupport
import TestSupport
import Testing

/// A fixed instant used as request timestamps.
let fixedMillis = 1_732_240_000_000

/// The text of a message from the journey.
func messageText(type: String = "request", action: String, id: String, data: String = "{}") -> String {
    #"{"version":"1.0","correlationId":"\#(id)","type":"\#(type)","timestamp":\#(fixedMillis),"payload":{"action":"\#(action)","data":\#(data)}}"#
}

/// A host on the main actor with a recording journey and a running agent on a private socket.
@MainActor
final class Fixture {
    let directory: String
    let socketPath: String
    let host: BridgeHost
    let journey: RecordingJourneyTransport
    let agent: InspectorAgent
    /// The host's clock: a hold's time limit passes only when a test moves it, so no hold ends
    /// by itself while a test on a busy machine still checks it.
    let clock = ManualClock()

    /// The agent's default limits, except time limits longer than the whole suite: the main actor
    /// is shared by tests running in parallel, and on a busy two-core machine a test on it can
    /// wait minutes between two steps (a 120 s limit was seen to pass mid-test); tests that are
    /// about these time limits set them explicitly.
    static func limits() -> AgentLimits {
        var limits = AgentLimits()
        limits.handshakeSeconds = 3600
        limits.stalledClientSeconds = 3600
        return limits
    }

    /// `prepare` runs on the host before the agent starts (to test the initial snapshot).
    /// With `tcp` the agent also listens over TCP (see ``InspectorTCPOptions``).
    init(
        limits: AgentLimits = Fixture.limits(), name: String = "test-host", tcp: InspectorTCPOptions? = nil,
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

    func stop() {
        agent.stop()
        removeDirectory(directory)
    }

    /// A connected raw client that has done the handshake.
    func client(subscribe: Bool = true) async throws -> (client: RawClient, hello: Frame, snapshot: Frame?) {
        let client = try RawClient.connect(socketPath)
        let (hello, snapshot) = try await client.handshake(subscribe: subscribe)
        return (client, hello, snapshot)
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

/// Events among `frames`.
func events(_ frames: [Frame]) -> [Frame] { frames.filter(\.isEvent) }

/// Events of one type among `frames`.
func events(_ frames: [Frame], type: String) -> [Frame] { frames.filter { $0.isEvent && $0.eventType == type } }

