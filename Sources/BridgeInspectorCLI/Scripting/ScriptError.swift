import ArgumentParser
import Foundation
import InspectorClient
import InspectorProtocol
import SocketSupport
import TerminalUI

/// Why a scripting subcommand stopped: the exit code it keeps (docs/cli.md) and a sentence that
/// says what happened, with a hint that says what to do next.
struct ScriptError: Error {
    /// One of ``ExitCodes``.
    var exitCode: Int32
    /// What happened (printed after `Error: `).
    var message: String
    /// What to do next (printed after `hint: `), if anything useful can be said.
    var hint: String?

    static func usage(_ message: String, hint: String? = nil) -> ScriptError {
        ScriptError(exitCode: ExitCodes.usage, message: message, hint: hint)
    }

    static func noHost(_ message: String, hint: String? = nil) -> ScriptError {
        ScriptError(exitCode: ExitCodes.noHost, message: message, hint: hint)
    }

    static func timeout(_ message: String, hint: String? = nil) -> ScriptError {
        ScriptError(exitCode: ExitCodes.timeout, message: message, hint: hint)
    }

    static func failure(_ message: String, hint: String? = nil) -> ScriptError {
        ScriptError(exitCode: ExitCodes.failure, message: message, hint: hint)
    }

    /// The host refused a command: its message, verbatim (made safe for a terminal), and its code.
    static func refused(_ error: InspectorError, hint: String?) -> ScriptError {
        ScriptError(exitCode: ExitCodes.refused, message: "the host refused: \(Sanitizer.sanitize(error.message)) (\(Sanitizer.sanitize(error.code)))", hint: hint)
    }

    /// The host went away while a command was waiting for something.
    static func hostWentAway(_ socketPath: String, while doing: String) -> ScriptError {
        .noHost(
            "the host at \(socketPath) went away (it stopped or restarted) \(doing)",
            hint: "check that it is running with `bridge-inspector hosts`, then run the command again")
    }
}

/// Runs a scripting subcommand's body and turns every failure into its documented exit code,
/// with `Error: ...` and `hint: ...` on standard error.
enum Script {
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let exit as ExitCode {
            throw exit
        } catch let failure as ScriptError {
            report(failure)
            throw ExitCode(failure.exitCode)
        } catch {
            let failure = classify(error)
            report(failure)
            throw ExitCode(failure.exitCode)
        }
    }

    static func report(_ failure: ScriptError) {
        StandardStreams.printFailure(failure.message)
        if let hint = failure.hint { StandardStreams.printError("hint: \(hint)") }
    }

    /// The exit code and words for an error from the client library or the socket layer.
    static func classify(_ error: any Error) -> ScriptError {
        switch error {
        case let error as InspectorClientError:
            switch error {
            case .noHost, .notAnAgent, .handshakeTimedOut:
                return .noHost("\(error)")
            case .closed(let path):
                return .hostWentAway(path, while: "before the command finished")
            case .refused(let refusal):
                return .refused(refusal, hint: refusal.knownCode == .tooManyClients ? "close another inspector attached to this host and try again" : nil)
            case .commandTimedOut:
                return .timeout("\(error)", hint: "check the host with `bridge-inspector hosts`; nothing more was sent")
            case .badFrame:
                return .failure("\(error)")
            case .tokenRefused:
                return ScriptError(exitCode: ExitCodes.refused, message: "\(error)")
            }
        case let error as InspectorEndpointError:
            return .usage("\(error)")
        case let error as TCPSelectionError:
            return .usage("\(error)")
        case let error as TokenFileError:
            return .usage("\(error)")
        case let error as HostSelectionError:
            if case .several = error { return .usage("\(error)") }
            return .noHost("\(error)")
        case is SocketSystemError, is PeerCredentialError, is UnixSocketAddressError, is SocketDirectoryError:
            return .noHost("cannot attach: \(error)", hint: "list the running hosts with `bridge-inspector hosts`")
        default:
            return .failure("\(error)")
        }
    }
}
