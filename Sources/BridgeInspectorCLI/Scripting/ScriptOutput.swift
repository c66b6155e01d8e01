import BridgeCore
import Foundation
import InspectorProtocol
import TerminalUI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What scripting subcommands print: compact JSON with sorted keys (stable, one object per
/// line), and text made safe for a terminal.
enum ScriptOutput {
    /// The encoder of every JSON line the scripting subcommands print.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Pretty-printed, for `--pretty`.
    static let prettyEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return encoder
    }()

    /// `value` as one line of JSON.
    static func json(_ value: some Encodable, pretty: Bool = false) throws -> String {
        String(decoding: try (pretty ? prettyEncoder : encoder).encode(value), as: UTF8.self)
    }

    /// `value`, holding `records`, as JSON (sorted keys) with each record's `message` exactly as
    /// it crossed the bridge: the bytes the agent's frame held (``WireTraffic/messageJSON``)
    /// stand in for the message re-encoded, whose numbers would be `Double`s (`9007199254740993`
    /// printed as `9007199254740992`, `1.0` as `1`) and keys sorted. `recordsAt` is the path of
    /// the array of records in `value`, or `nil` when `value` is the one record (with its
    /// fields at the top level). A message keeps its own spacing in `--pretty` output.
    static func json(_ value: some Encodable, holding records: [WireTraffic], recordsAt path: [String]?, pretty: Bool = false) throws -> String {
        var encoded = try (pretty ? prettyEncoder : encoder).encode(value)
        let objects = path.map { JSONExtent.elements(at: $0, in: encoded) ?? [] } ?? [encoded.startIndex..<encoded.endIndex]
        guard objects.count == records.count else { return String(decoding: encoded, as: UTF8.self) }
        // From the last, so the ranges before each replaced message stay where they were.
        for (object, record) in zip(objects, records).reversed() {
            guard let exact = record.messageJSON, let message = JSONExtent.value(at: ["message"], in: encoded[object]) else { continue }
            encoded.replaceSubrange(message, with: exact)
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Prints each message the host sent, as one JSON line.
    static func printSent(_ messages: [BridgeMessage]) throws {
        for message in messages { StandardStreams.printJSON(try json(message)) }
    }

    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Untrusted text for a terminal: control characters shown as escapes.
    static func safe(_ text: String) -> String { Sanitizer.sanitize(text) }

    /// A value scripts take as it is (a correlation id): exact when piped, made safe on a terminal.
    static func value(_ text: String) -> String { stdoutIsTerminal ? Sanitizer.sanitize(text) : text }
}
