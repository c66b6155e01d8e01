import BridgeCore
import Foundation
import InspectorClient
import TerminalUI

/// `bridge-inspector host --recording FILE`: the host answers the journey from a recorded
/// session (``RecordedAnswerBook``, matched by ``RecordedPlayback``) instead of a profile's
/// handlers, and sends the recorded host events at the same points.
///
/// How it sits in the host, so that everything else works as with any host (the inspector, its
/// breakpoints, `respond`, reply rules):
/// - a handler for every action the recording holds, and for `capability.query` (the recorded
///   answer replaces the built-in one, so the journey sees the capabilities the real app had):
///   it answers through its responder, as an app's handler does, so the log shows the host's
///   answer with the live request's correlation id and today's timestamp; what the recording
///   cannot answer it passes to `pendingRequests` (``BridgeCore/BridgeResponder/passToPending()``);
/// - an observer counts the journey's messages and sends each recorded event once the journey
///   has sent as many messages as when the recorded host sent it;
/// - the journeys call ``pageAttached(host:)`` where a host sends `host.ready`.
@MainActor
final class RecordedHost {
    private var playback: RecordedPlayback
    private let pacing: Bool
    private var observation: BridgeObservationToken?
    /// The host made by ``makeHost()``: its clock paces the answers.
    private weak var host: BridgeHost?

    /// The recording's book.
    var book: RecordedAnswerBook { playback.book }

    /// Reads the recording at `path`; throws a ``RecordedHostError`` saying what is wrong when
    /// nothing in it can be used.
    init(path: String, ignoring: [RecordedDataPath], pacing: Bool) throws {
        let contents = RecordingPath.load(path)
        if RecordingPath.isUnreadable(contents) {
            throw RecordedHostError(
                description: "--recording \(path): \(contents.problem?.description ?? "nothing readable"); make one with `bridge-inspector record --host NAME FILE`")
        }
        if let problem = contents.problem {
            StandardStreams.printError(Sanitizer.sanitize("bridge-inspector host: warning: --recording \(path): \(problem); answering from what was read before it."))
        }
        playback = RecordedPlayback(book: RecordedAnswerBook(contents: contents), ignoredPaths: ignoring)
        self.pacing = pacing
    }

    /// The recorded host's version (what `capability.query` and `host.ready` said), or a
    /// stand-in when the recording has no snapshot.
    var hostVersion: String { book.host?.hostVersion ?? "recorded" }

    /// The name the host is served under unless `--name` says: the recorded host's, marked as
    /// recorded, so `--host NAME` never mistakes it for the real app.
    var defaultName: String { "\(book.host?.name ?? "host")-recorded" }

    /// Makes the host that answers from the recording.
    func makeHost() -> BridgeHost {
        let host = BridgeHost(hostVersion: hostVersion)
        if let environment = book.host?.environment, !environment.isEmpty { host.environment = environment }
        for action in Set(book.actions + [CapabilityQueryHandler.action]) {
            host.register(handler: RecordedAnswerHandler(action: action, recorded: self))
        }
        let recordedActions = Set(book.actions)
        observation = host.addObserver { [weak self, weak host] change in
            switch change {
            case .traffic(let record) where record.direction == .received:
                // After the host has routed the message (and answered it, when that is immediate).
                Task { @MainActor in
                    guard let self, let host else { return }
                    self.journeyMessageArrived(host: host)
                }
            case .pendingAdded(let pending) where !recordedActions.contains(pending.message.payload.action):
                // No handler took it: say why, as for a request the handlers pass on.
                let request = pending.message
                Task { @MainActor in self?.noticeUnrecorded(request) }
            default:
                break
            }
        }
        self.host = host
        return host
    }

    /// What the recording holds, for the start-up notices.
    var summary: String {
        let events = book.events.count
        return "answering from the recording: \(book.exchanges.count) request(s) of \(book.actions.count) action(s), \(events) host event(s) and \(book.readyEvents.count) host.ready; what it cannot answer waits in pendingRequests"
            + (pacing ? "; answers keep their recorded latency" : "")
    }

    /// A page attached: the recording starts again; sends the recorded `host.ready` (its
    /// `timestamp` now, as the documented event means) and the events recorded before the
    /// journey's first message.
    func pageAttached(host: BridgeHost) {
        let (ready, events) = playback.pageAttached()
        if let ready {
            var data = ready.data ?? [:]
            if data["timestamp"] != nil { data["timestamp"] = .number((host.now().timeIntervalSince1970 * 1000).rounded()) }
            host.send(event: ready.action, data: data)
        } else {
            host.sendReadyEvent()
        }
        for event in events { host.send(event: event.action, data: event.data) }
    }

    /// Says why a request of an action the recording never saw waits in pendingRequests (the
    /// playback's reason; such a request uses no exchange).
    private func noticeUnrecorded(_ request: BridgeMessage) {
        guard case .unanswered(let reason) = playback.answer(action: request.payload.action, data: request.payload.data) else { return }
        notice("'\(request.payload.action)' (\(request.correlationId)) waits in pendingRequests: \(reason).")
    }

    private func journeyMessageArrived(host: BridgeHost) {
        for event in playback.journeyMessageArrived() { host.send(event: event.action, data: event.data) }
    }

    /// Answers one live request from the recording, or passes it to `pendingRequests`.
    func answer(_ request: BridgeMessage, responder: BridgeResponder) async {
        let action = request.payload.action
        switch playback.answer(action: action, data: request.payload.data) {
        case .unanswered(let reason):
            notice("'\(action)' (\(request.correlationId)) waits in pendingRequests: \(reason).")
            responder.passToPending()
        case .answer(let exchange, let answer, let loosely, let again):
            if loosely {
                notice("'\(action)' (\(request.correlationId)) answered as recorded \(exchange.recordedId), whose data differs only in --match-ignore fields.")
            }
            if again {
                notice("'\(action)' (\(request.correlationId)) answered again as recorded \(exchange.recordedId): the journey asked more often than in the recording.")
            }
            if pacing, let latency = answer.latencyMs, latency > 0, let clock = host?.clock {
                // On the host's clock, as a profile's delays are.
                try? await clock.sleep(for: .milliseconds(latency.rounded()))
            }
            // A recorded response without a status (a host that sent none) is answered success,
            // the status a response carrying data means.
            responder.respond(status: answer.status ?? .success, data: answer.data, error: answer.error)
        }
    }

    private func notice(_ line: String) {
        StandardStreams.printError(Sanitizer.sanitize("bridge-inspector host: \(line)"))
    }
}

/// The handler for one action of a ``RecordedHost``: answers from the recording.
private struct RecordedAnswerHandler: BridgeCapabilityHandler {
    let action: String
    let recorded: RecordedHost

    func handle(request: BridgeMessage, responder: BridgeResponder) async {
        await recorded.answer(request, responder: responder)
    }
}

/// The recording given to `host --recording` cannot be used (no such file, not a recording):
/// exit 5, as `open` says of such a file.
struct RecordedHostError: Error, CustomStringConvertible {
    /// What is wrong and what to do.
    var description: String
}
