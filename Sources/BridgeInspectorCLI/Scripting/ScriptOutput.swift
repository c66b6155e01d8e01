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
