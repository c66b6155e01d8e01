import ArgumentParser
import BridgeCore
import Foundation
import InspectorProtocol

/// Reading `--data`: inline JSON, `@FILE`, or `-` for standard input. Checked completely before
/// anything is sent, so malformed input never reaches the host.
enum DataArgument {
    /// The largest `--data` accepted: the agent takes command frames of up to 16 MiB.
    static let maxBytes = WireProtocol.maxCommandDataBytes

    static let hint = "--data takes a JSON object: inline ('{\"uid\":\"04A2\"}'), @FILE to read a file, or - to read standard input"

    /// The object `text` holds, or `nil` when no `--data` was given. Throws a usage failure
    /// (exit 64) that says where the JSON goes wrong (line, and column in characters from the
    /// first one given, leading spaces included).
    static func object(_ text: String?, option: String = "--data") throws -> [String: JSONValue]? {
        guard let text else { return nil }
        let (bytes, source) = try read(text, option: option)
        guard bytes.count <= maxBytes else {
            throw ScriptError.usage("\(source) is \(bytes.count) bytes; at most \(maxBytes) can be sent")
        }
        let value: JSONValue
        do throws(JSONSyntaxCheck.Problem) {
            value = try JSONParser.read(bytes)
        } catch {
            // The column in characters, counted as the inspector's data field counts it.
            throw ScriptError.usage("\(source) is not valid JSON: \(error.describe(in: bytes))", hint: hint)
        }
        guard case .object(let object) = value else {
            throw ScriptError.usage("\(source) must be a JSON object ({...}), not \(describe(value))", hint: hint)
        }
        return object
    }

    private static func read(_ text: String, option: String) throws -> ([UInt8], String) {
        if text == "-" {
            return (Array(FileHandle.standardInput.readDataToEndOfFile()), "\(option) - (standard input)")
        }
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            guard let data = FileManager.default.contents(atPath: (path as NSString).expandingTildeInPath) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
                throw ScriptError.usage("\(option) @\(path): \(reason)", hint: hint)
            }
            return (Array(data), "\(option) @\(path)")
        }
        return (Array(text.utf8), option)
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .object: return "an object"
        }
    }
}

/// `--error-code`, `--error-message`, `--[no-]recoverable`: the error object of a response.
struct ErrorOptions: ParsableArguments {
    @Option(name: .customLong("error-code"), help: ArgumentHelp(
        "The error's code, such as PERMISSION_DENIED, BUSY, TIMEOUT or a code of your own.", valueName: "code"))
    var code: String?

    @Option(name: .customLong("error-message"), help: ArgumentHelp(
        "The error's sentence. Default: the standard one for a known code (required for other codes).", valueName: "text"))
    var message: String?

    @Flag(name: .customLong("recoverable"), inversion: .prefixedNo, help: ArgumentHelp(
        "Whether the journey may retry. Default: what the web SDK expects for a known code, else not recoverable."))
    var recoverable: Bool?

    /// Whether any of the options was given.
    var isGiven: Bool { code != nil || message != nil || recoverable != nil }

    /// The error object, `nil` when no option was given; a usage failure when it is incomplete.
    /// The error payload for a response with `status`, refused (usage) when the two disagree:
    /// an `error` response needs a code, a `success` carries none.
    func payload(for status: BridgeResponseStatus) throws -> BridgeErrorPayload? {
        let payload = try payload()
        switch InspectorCommand.statusErrorMismatch(status: status, error: payload) {
        case .errorWithoutCode?:
            throw ScriptError.usage("an error response needs an error code", hint: "for example --error-code PERMISSION_DENIED")
        case .successWithError?:
            throw ScriptError.usage("a success response carries no error", hint: "leave out the --error options, or use --status error")
        case nil:
            return payload
        }
    }

    func payload() throws -> BridgeErrorPayload? {
        guard isGiven else { return nil }
        guard let code, !code.isEmpty else {
            throw ScriptError.usage("--error-message and --recoverable need --error-code", hint: "for example --error-code PERMISSION_DENIED")
        }
        let known = BridgeErrorCode(rawValue: code)
        guard let text = message ?? known?.defaultMessage else {
            throw ScriptError.usage(
                "--error-code \(code) is not a code the web SDK knows, so it needs --error-message",
                hint: "known codes: \(BridgeErrorCode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return BridgeErrorPayload(code: code, message: text, recoverable: recoverable ?? known?.isRecoverable ?? false)
    }
}

/// `--status`, `--data` and the `--error` options: a whole response, as `respond` and `answer`
/// take it, checked completely before anything is sent.
struct ResponseOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The response status.", valueName: "status"))
    var status: StatusArgument = .success

    @Option(help: ArgumentHelp("The response data: a JSON object, @FILE, or - for standard input.", valueName: "json"))
    var data: String?

    @OptionGroup var error: ErrorOptions

    /// The status, data and error to send; a usage failure (exit 64) for malformed `--data` or
    /// a status and error that disagree.
    func parts() throws -> (status: BridgeResponseStatus, data: [String: JSONValue]?, error: BridgeErrorPayload?) {
        (status.status, try DataArgument.object(data), try error.payload(for: status.status))
    }
}

/// A response status on the command line.
enum StatusArgument: String, CaseIterable, ExpressibleByArgument {
    case success, error, cancelled, unsupported

    var status: BridgeResponseStatus { BridgeResponseStatus(rawValue: rawValue) ?? .success }
}

/// A capture slot on the command line.
enum SlotArgument: String, CaseIterable, ExpressibleByArgument {
    case document, selfie

    var kind: CaptureCapability.Kind { self == .document ? .document : .selfie }
}

/// A timeout in seconds on the command line.
enum Seconds {
    /// Checks a `--timeout`-like value (a positive number of seconds, at most a day).
    static func check(_ value: Double?, option: String) throws {
        guard let value else { return }
        guard value > 0, value <= 86_400 else {
            throw ScriptError.usage("\(option) takes a number of seconds greater than 0 and at most 86400 (got \(value))")
        }
    }
}
