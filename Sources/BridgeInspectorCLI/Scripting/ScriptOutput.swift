import BridgeCore
import Foundation
import InspectorClient
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
    static let encoder = JSONEncoding.compact

    /// Pretty-printed, for `--pretty`.
    static let prettyEncoder = JSONEncoding.pretty

    /// `value` as one line of JSON.
    static func json(_ value: some Encodable, pretty: Bool = false) throws -> String {
        String(decoding: try (pretty ? prettyEncoder : encoder).encode(value), as: UTF8.self)
    }

    /// `value` as JSON (sorted keys) with its messages exactly as they crossed the bridge.
    ///
    /// Each entry of `exact` names an array of records in `value` by its path (`nil`: `value`
    /// is itself the one record) and gives each record's message bytes from the agent's frame
    /// (``WireTraffic/messageJSON``, ``WirePending/messageJSON``); those bytes stand in for the
    /// record's `message` re-encoded, whose numbers would be `Double`s (`9007199254740993`
    /// printed as `9007199254740992`, `1.0` as `1`) and keys sorted. A record without bytes keeps
    /// its re-encoded message; a message keeps its own spacing in `--pretty` output.
    static func json(_ value: some Encodable, exact: [(recordsAt: [String]?, messages: [Data?])], pretty: Bool = false) throws -> String {
        var encoded = try (pretty ? prettyEncoder : encoder).encode(value)
        // Where each record's message stands in what was just encoded, found by the one parser.
        let paths: [[JSONParser.PathStep]] = exact.map { ($0.recordsAt ?? []).map { .key($0) } + ($0.recordsAt == nil ? [] : [.element]) + [.key("message")] }
        let ranges = (try? JSONParser.read(encoded, maxDepth: JSONSyntaxCheck.maximumDepth, capturing: paths).ranges) ?? []
        var replacements: [(range: Range<Int>, bytes: Data)] = []
        for (messages, found) in zip(exact.map(\.messages), ranges) where found.count == messages.count {
            for (range, bytes) in zip(found, messages) {
                guard let bytes else { continue }
                replacements.append((range, bytes))
            }
        }
        // From the last, so the ranges before each replaced message stay where they were.
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            encoded.replaceSubrange(replacement.range, with: replacement.bytes)
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Untrusted text for a terminal: control characters shown as escapes.
    static func safe(_ text: String) -> String { Sanitizer.sanitize(text) }

    /// Untrusted text as one word of a command a person may copy (`respond <id>`): quoted for
    /// every shell (``ShellWord/quoted(_:)``), then made safe for a terminal.
    static func shellWord(_ text: String) -> String { safe(ShellWord.quoted(text)) }

    /// A value scripts take as it is (a correlation id): exact when piped, made safe on a terminal.
    static func value(_ text: String) -> String { stdoutIsTerminal ? Sanitizer.sanitize(text) : text }
}
