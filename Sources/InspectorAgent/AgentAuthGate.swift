import BridgeCore
import Foundation
import InspectorProtocol

/// Judges a TCP client's first line against the host's token, and paces the judgements.
///
/// Owned by the agent's core, so it reads no clock: every call is given the time. After a
/// failure the next judgement (of any connection) waits a growing delay
/// (``delay(afterFailures:)``, 0.1 s doubling to at most 3 s by default): guessing the token
/// cannot go faster by opening more connections, and the agent never blocks (the waiting line is
/// simply judged on a later pass; Unix-socket clients are served meanwhile).
final class AgentAuthGate {
    /// The outcome of one auth line.
    enum Verdict: Equatable {
        case accepted
        case refused(InspectorError)
    }

    private let token: [UInt8]
    private let log: @Sendable (String) -> Void
    /// Failed judgements in a row (reset by a success).
    private(set) var failures = 0
    /// No auth line is judged before this.
    private(set) var nextJudgement = Date.distantPast

    private let firstDelaySeconds: Double
    private let maximumDelaySeconds: Double

    /// A gate for `token` that logs each refusal with `log`; the pace after failures starts at
    /// `firstDelaySeconds` and doubles up to `maximumDelaySeconds`.
    init(token: String, log: @escaping @Sendable (String) -> Void, firstDelaySeconds: Double = 0.1, maximumDelaySeconds: Double = 3) {
        self.token = Array(token.utf8)
        self.log = log
        self.firstDelaySeconds = firstDelaySeconds
        self.maximumDelaySeconds = maximumDelaySeconds
    }

    /// The delay before the next judgement after `failures` failures in a row: none, then
    /// `first` (0.1 s by default), doubling up to `maximum` (3 s by default).
    static func delay(afterFailures failures: Int, first: Double = 0.1, maximum: Double = 3) -> Double {
        guard failures > 0 else { return 0 }
        return min(maximum, first * pow(2, Double(min(failures - 1, 32))))
    }

    /// This gate's delay after `failures` failures in a row.
    func delay(afterFailures failures: Int) -> Double {
        Self.delay(afterFailures: failures, first: firstDelaySeconds, maximum: maximumDelaySeconds)
    }

    /// Whether an auth line may be judged now.
    func mayJudge(now: Date) -> Bool {
        now >= nextJudgement
    }

    /// Judges a client's first line (call only when ``mayJudge(now:)``): accepted when it is an
    /// auth frame carrying exactly the token. Paces the next judgement after a failure.
    func judge(_ line: [UInt8], now: Date) -> Verdict {
        let verdict = Self.verdict(for: line, token: token)
        if verdict == .accepted {
            failures = 0
            nextJudgement = now
        } else {
            failures += 1
            let delay = delay(afterFailures: failures)
            nextJudgement = now.addingTimeInterval(delay)
            log("bridge-inspector: refused a TCP connection (no valid token; \(failures) refused in a row, "
                + "the next attempt is judged in \(AgentCore.secondsText(delay)) s)")
        }
        return verdict
    }

    /// Records a refusal that needed no judgement (a late or oversized first line) for the pace.
    func recordFailure(now: Date) {
        failures += 1
        nextJudgement = max(nextJudgement, now.addingTimeInterval(delay(afterFailures: failures)))
    }

    static let refusedMessage =
        "the token was refused: copy it from the app's console line `bridge-inspector: attach over USB ...` "
        + "and pass it with --token"
    static let requiredMessage =
        "this TCP port needs the host's token first: send {\"kind\":\"auth\",\"token\":\"...\"} "
        + "(bridge-inspector --connect HOST:PORT --token T; the token is in the app's console line "
        + "`bridge-inspector: attach over USB ...`)"

    private static func verdict(for line: [UInt8], token: [UInt8]) -> Verdict {
        guard line.count <= ClientAuth.maxFrameBytes,
            let frame = try? JSONDecoding.decode(AuthFrame.self, from: line, maxDepth: 4),
            frame.kind == "auth"
        else {
            return .refused(InspectorError(.authRequired, requiredMessage))
        }
        guard let given = frame.token, constantTimeEqual(Array(given.utf8), token) else {
            return .refused(InspectorError(.authFailed, refusedMessage))
        }
        return .accepted
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
