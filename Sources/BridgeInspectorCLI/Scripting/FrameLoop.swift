import Foundation
import InspectorClient
import InspectorProtocol

/// Reads a subscribed session's frames until the caller is done, a deadline passes, SIGINT or
/// SIGTERM arrives, or the host goes away: the loop under `tail`, `wait-for` and `auto-respond`.
///
/// While it exists, SIGINT and SIGTERM do not kill the process; they end the loop (within a
/// quarter of a second) so the command can finish cleanly (print its summary, exit 0).
final class FrameLoop {
    /// How the loop ended.
    enum End: Equatable {
        /// The step said it was done.
        case finished
        /// The timeout passed.
        case timedOut
        /// SIGINT or SIGTERM arrived.
        case interrupted
        /// The host closed the connection.
        case hostGone
    }

    /// The session read; `tail --follow --host NAME` replaces it when the host is run again.
    var session: InspectorSession?
    private let stop = StopRequest()
    private var watcher: SignalWatcher?

    /// Watches signals from now on; `session` may come later (a followed host not yet running).
    init(session: InspectorSession?) {
        self.session = session
        let stop = self.stop
        watcher = SignalWatcher { _ in stop.set() }
    }

    deinit {
        watcher?.cancel()
    }

    /// Stops watching signals (their default actions are restored).
    func cancel() {
        watcher?.cancel()
        watcher = nil
    }

    /// Whether a signal asked to stop.
    var isInterrupted: Bool { stop.isSet }

    /// Hands `show` every frame until a signal or the host going away, those that came while the
    /// command was setting itself up first: the loop under `break` and `fault`, which stay
    /// attached as long as what they set should live.
    func showUntilStopped(_ show: (AgentFrame) throws -> Void) throws -> End {
        if let session {
            while let frame = try session.nextFrame(timeout: 0.001) { try show(frame) }
        }
        return try run(timeout: nil) { frame in
            if let frame { try show(frame) }
            return false
        }
    }

    /// Calls `step` with each frame, and with `nil` whenever `nextWake()` seconds (at most a
    /// quarter of a second) pass without one; `step` returns `true` when done. `timeout` (seconds)
    /// bounds the whole loop.
    func run(timeout: Double?, nextWake: () -> Double = { 0.25 }, step: (AgentFrame?) throws -> Bool) throws -> End {
        guard let session else { return .hostGone }
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while true {
            if stop.isSet { return .interrupted }
            var wait = min(0.25, max(0.001, nextWake()))
            if let deadline {
                let remaining = deadline.timeIntervalSinceNow
                if remaining <= 0 { return .timedOut }
                wait = min(wait, remaining)
            }
            let frame: AgentFrame?
            do {
                frame = try session.nextFrame(timeout: wait)
            } catch InspectorClientError.closed {
                return .hostGone
            }
            if try step(frame) { return .finished }
        }
    }
}

/// Parsing filter expressions given on the command line.
enum FilterArgument {
    static let hint = "filter terms (all must match; | between terms: either; ! negates; ( ) groups; \"|\" is text): type:request/response/event dir:in/out action:camera.* status:error code:BUSY id:TEXT is:pending/error/malformed/manual/rule body:TEXT, or plain text"

    /// The filter `text` holds (`nil` when not given); a usage failure (exit 64) naming the bad term.
    static func parse(_ text: String?, option: String) throws -> LogFilter? {
        guard let text else { return nil }
        do {
            return try LogFilter.parse(text)
        } catch {
            throw ScriptError.usage("\(option) \(error.description)", hint: hint)
        }
    }
}
