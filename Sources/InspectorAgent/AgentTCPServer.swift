import BridgeCore
import Foundation
import InspectorProtocol
import SocketSupport

/// The agent's TCP side: the listener, the token, and the pace at which auth frames are judged.
///
/// Owned by the agent's thread. Every TCP client starts unauthenticated; its first line is
/// judged here. After a failure the next judgement (of any connection) waits a growing delay
/// (``delay(afterFailures:)``, 0.1 s doubling to at most 3 s by default): guessing the token cannot go
/// faster by opening more connections, and the agent's loop never blocks (the waiting line is
/// simply judged on a later pass; Unix-socket clients are served meanwhile).
final class AgentTCPServer {
    /// The outcome of one auth line.
    enum Verdict: Equatable {
        case accepted
        case refused(InspectorError)
    }

    let listener: TCPListener
    let endpoint: InspectorTCPEndpoint
    private let token: [UInt8]
    private let log: @Sendable (String) -> Void
    /// Failed judgements in a row (reset by a success).
    private(set) var failures = 0
    /// No auth line is judged before this.
    private(set) var nextJudgement = Date.distantPast

    private let firstDelaySeconds: Double
    private let maximumDelaySeconds: Double

    /// The delay before the next judgement after `failures` failures in a row: none, then
    /// `first` (0.1 s by default), doubling up to `maximum` (3 s by default).
    static func delay(afterFailures failures: Int, first: Double = 0.1, maximum: Double = 3) -> Double {
        guard failures > 0 else { return 0 }
        return min(maximum, first * pow(2, Double(min(failures - 1, 32))))
    }

    /// This server's delay after `failures` failures in a row.
    func delay(afterFailures failures: Int) -> Double {
        Self.delay(afterFailures: failures, first: firstDelaySeconds, maximum: maximumDelaySeconds)
    }

    /// Listens as `options` say and logs the connect line (and a warning off loopback).
    init(options: InspectorTCPOptions) throws {
        let token = try options.token.map(Self.validated) ?? Self.randomToken()
        listener = try TCPListener(address: options.address, port: options.port, allowNonLoopback: options.allowNonLoopback)
        endpoint = InspectorTCPEndpoint(address: listener.address, port: listener.port, token: token)
        self.token = Array(token.utf8)
        self.log = options.log
        self.firstDelaySeconds = options.firstDelaySeconds
        self.maximumDelaySeconds = options.maximumDelaySeconds
        if !listener.isLoopback {
            options.log(
                "bridge-inspector: WARNING: the inspector listens on \(endpoint), which is NOT loopback: anyone on the network "
                    + "who learns the token can read the app's bridge traffic and drive the app. Use 127.0.0.1 with iproxy instead.")
        }
        options.log(endpoint.connectLine)
    }

    /// A fresh 256-bit token as 64 lowercase hex digits (from the system's secure generator).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }

    /// `token` when it is 16...128 characters of `A-Z a-z 0-9 . _ ~ -`; throws otherwise.
    static func validated(_ token: String) throws -> String {
        let allowed = token.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2E || byte == 0x5F || byte == 0x7E || byte == 0x2D
        }
        guard allowed, (16...128).contains(token.utf8.count) else { throw InspectorTCPError.badToken(length: token.count) }
        return token
    }

    /// Whether an auth line may be judged now.
    func mayJudge(now: Date) -> Bool {
        now >= nextJudgement
    }

    /// Milliseconds until the next judgement may happen (0 when it may now), for `poll`.
    func millisecondsUntilJudgement(now: Date) -> Int32 {
        let seconds = nextJudgement.timeIntervalSince(now)
        return seconds <= 0 ? 0 : Int32(min(250, (seconds * 1000).rounded(.up)))
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
                + "the next attempt is judged in \(AgentLoop.secondsText(delay)) s)")
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
            JSONSyntaxCheck.firstProblem(in: line, maxDepth: 4) == nil,
            let frame = try? JSONDecoder().decode(AuthFrame.self, from: Data(line)),
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
