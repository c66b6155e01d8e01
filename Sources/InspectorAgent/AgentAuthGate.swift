import BridgeCore
import Foundation
import InspectorProtocol

/// Judges a TCP client's first line against the host's token, and paces the refusals.
///
/// Owned by the agent's core, so it reads no clock: every call is given the time. A line is
/// judged as soon as it arrives, so the right token is let in at once whatever strangers do on
/// the port. Only refusals are paced: after a failure the next refusal (of any connection) is
/// sent a growing delay later (``delay(afterFailures:)``, 0.1 s doubling to at most 3 s by
/// default), so a client that guesses one token at a time goes no faster by opening more
/// connections in turn. The agent never blocks: a refused connection simply waits for its
/// refusal's time, taking one of the few places for connections that have not authenticated
/// (``AgentLimits/maxClientsAwaitingAuth``). Refusals are logged at most once every
/// ``logIntervalSeconds``, with how many there were, so strangers cannot flood the app's log.
final class AgentAuthGate {
    /// The outcome of one auth line.
    enum Verdict: Equatable {
        case accepted
        /// Refused with `error`, to be sent at `at` (the pace; never before the time judged).
        case refused(InspectorError, at: Date)
    }

    private let token: [UInt8]
    private let log: @Sendable (String) -> Void
    /// Failed judgements in a row (reset by a success).
    private(set) var failures = 0
    /// No refusal is sent before this.
    private(set) var nextRefusal = Date.distantPast
    /// Refusals not yet logged, and when the next log line may be written.
    private var unloggedRefusals = 0
    private var nextLogLine = Date.distantPast

    private let firstDelaySeconds: Double
    private let maximumDelaySeconds: Double

    /// The shortest time between two log lines about refusals.
    static let logIntervalSeconds = 3.0

    /// A gate for `token` that logs refusals with `log`; the pace after failures starts at
    /// `firstDelaySeconds` and doubles up to `maximumDelaySeconds`.
    init(token: String, log: @escaping @Sendable (String) -> Void, firstDelaySeconds: Double = 0.1, maximumDelaySeconds: Double = 3) {
        self.token = Array(token.utf8)
        self.log = log
        self.firstDelaySeconds = firstDelaySeconds
        self.maximumDelaySeconds = maximumDelaySeconds
    }

    /// The delay between refusals after `failures` failures in a row: none, then `first` (0.1 s
    /// by default), doubling up to `maximum` (3 s by default).
    static func delay(afterFailures failures: Int, first: Double = 0.1, maximum: Double = 3) -> Double {
        guard failures > 0 else { return 0 }
        return min(maximum, first * pow(2, Double(min(failures - 1, 32))))
    }

    /// This gate's delay after `failures` failures in a row.
    func delay(afterFailures failures: Int) -> Double {
        Self.delay(afterFailures: failures, first: firstDelaySeconds, maximum: maximumDelaySeconds)
    }

    /// Judges a client's first line now: accepted when it is an auth frame carrying exactly the
    /// token, at once. A refusal is given the time it may be sent, and paces the next one.
    func judge(_ line: [UInt8], now: Date) -> Verdict {
        switch Self.verdict(for: line, token: token) {
        case .success:
            failures = 0
            return .accepted
        case .failure(let error):
            let at = max(now, nextRefusal)
            failures += 1
            nextRefusal = at.addingTimeInterval(delay(afterFailures: failures))
            noteRefusal(now: now)
            return .refused(error, at: at)
        }
    }

    /// Records a refusal that needed no judgement (a late or oversized first line), sent at
    /// once, for the pace.
    func recordFailure(now: Date) {
        failures += 1
        nextRefusal = max(nextRefusal, now.addingTimeInterval(delay(afterFailures: failures)))
        noteRefusal(now: now)
    }

    /// Logs refusals, at most one line every ``logIntervalSeconds``.
    private func noteRefusal(now: Date) {
        unloggedRefusals += 1
        guard now >= nextLogLine else { return }
        let count = unloggedRefusals
        unloggedRefusals = 0
        nextLogLine = now.addingTimeInterval(Self.logIntervalSeconds)
        log("bridge-inspector: refused \(count == 1 ? "a TCP connection" : "\(count) TCP connections") without a valid token "
            + "(\(failures) in a row; this line is written at most every \(AgentCore.secondsText(Self.logIntervalSeconds)) s)")
    }

    static let refusedMessage =
        "the token was refused: copy it from the app's console line `bridge-inspector: attach over USB ...` "
        + "and give it in BRIDGE_INSPECTOR_TOKEN (or --token-file)"
    static let crowdedMessage =
        "too many connections are waiting to authenticate on this TCP port, and this one had waited longest "
        + "without a valid token: someone else is connecting to the port (perhaps guessing the token); try again"
    static let requiredMessage =
        "this TCP port needs the host's token first: send {\"kind\":\"auth\",\"token\":\"...\"} "
        + "(BRIDGE_INSPECTOR_TOKEN=T bridge-inspector --connect HOST:PORT; the token is in the app's console line "
        + "`bridge-inspector: attach over USB ...`)"

    private static func verdict(for line: [UInt8], token: [UInt8]) -> Result<Void, InspectorError> {
        guard line.count <= ClientAuth.maxFrameBytes,
            let frame = try? JSONDecoding.decode(AuthFrame.self, from: line, maxDepth: 4),
            frame.kind == "auth"
        else {
            return .failure(InspectorError(.authRequired, requiredMessage))
        }
        guard let given = frame.token, constantTimeEqual(Array(given.utf8), token) else {
            return .failure(InspectorError(.authFailed, refusedMessage))
        }
        return .success(())
    }

    /// Compares without an early exit, so the time taken does not tell how much of a guess
    /// was right (only its length against the token's, which is public: 64 hex digits).
    static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: given.count ^ expected.count)
        if given.count != expected.count { difference |= 1 }
        for index in expected.indices {
            let other = index < given.count ? given[index] : 0
            difference |= other ^ expected[index]
        }
        return difference == 0
    }

    private struct AuthFrame: Decodable {
        var kind: String
        var token: String?
    }
}
