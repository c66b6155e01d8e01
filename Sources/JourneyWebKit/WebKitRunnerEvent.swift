import Foundation

/// One line the WebKit runner writes: what happened in the web view (see ``WebKitRunnerCommand``
/// for the other direction, and docs/web-journeys.md for the protocol).
enum WebKitRunnerEvent: Sendable, Equatable {
    /// The web view exists (before it loads anything): WebKit's version and the X display.
    case started(webkitVersion: String, display: String)
    /// The page posted `text` to the script message handler `handler`.
    case post(handler: String, text: String)
    /// The page posted something that has no JSON form.
    case postFailed(handler: String, error: String)
    /// Delivery `seq` ran; `probe` is the JSON text of its probe's result, when it had one.
    case evaluated(seq: Int, probe: String?)
    /// Delivery `seq` failed: WebKit's error text.
    case evaluateFailed(seq: Int, error: String)
    /// Query `id`'s result as JSON text (`undefined` when it had none).
    case queryResult(id: Int, json: String)
    /// Query `id` failed.
    case queryFailed(id: Int, error: String)
    /// A navigation moved on (`started`, `redirected`, `committed`, `finished`).
    case load(event: String, uri: String)
    /// A navigation failed.
    case loadFailed(uri: String, error: String)
    /// The web content process ended (`crashed`, `exceededMemoryLimit`, `terminatedByAPI`).
    case webProcessTerminated(reason: String)
    /// The web view is gone.
    case viewDestroyed
    /// The runner could not use a command; it goes on.
    case error(String)
    /// The runner cannot go on and exits.
    case fatal(String)

    /// Decodes one line; throws ``WebKitRunnerEvent/LineError`` for a line that is not an event.
    init(line: Data) throws {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: line)
        } catch {
            throw LineError(text: "not a JSON object with a \"kind\": \(Self.preview(line))")
        }
        func need<T>(_ value: T?, _ field: String) throws -> T {
            guard let value else { throw LineError(text: "a \"\(wire.kind)\" event without \"\(field)\": \(Self.preview(line))") }
            return value
        }
        switch wire.kind {
        case "started": self = .started(webkitVersion: wire.webkitVersion ?? "unknown", display: wire.display ?? "")
        case "post": self = .post(handler: try need(wire.handler, "handler"), text: try need(wire.text, "text"))
        case "postFailed": self = .postFailed(handler: try need(wire.handler, "handler"), error: wire.error ?? "")
        case "evaluated": self = .evaluated(seq: try need(wire.seq, "seq"), probe: wire.probe)
        case "evaluateFailed": self = .evaluateFailed(seq: try need(wire.seq, "seq"), error: wire.error ?? "an unknown error")
        case "queryResult": self = .queryResult(id: try need(wire.id, "id"), json: try need(wire.json, "json"))
        case "queryFailed": self = .queryFailed(id: try need(wire.id, "id"), error: wire.error ?? "an unknown error")
        case "load": self = .load(event: try need(wire.event, "event"), uri: wire.uri ?? "")
        case "loadFailed": self = .loadFailed(uri: wire.uri ?? "", error: wire.error ?? "an unknown error")
        case "webProcessTerminated": self = .webProcessTerminated(reason: wire.reason ?? "unknown")
        case "viewDestroyed": self = .viewDestroyed
        case "error": self = .error(wire.text ?? "")
        case "fatal": self = .fatal(wire.text ?? "")
        default: throw LineError(text: "an event of unknown kind \"\(wire.kind)\"")
        }
    }

    /// A line from the runner that is not an event (a protocol mismatch between the two builds).
    struct LineError: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    private struct Wire: Decodable {
        var kind: String
        var webkitVersion: String?
        var display: String?
        var handler: String?
        var text: String?
        var error: String?
        var seq: Int?
        var id: Int?
        var probe: String?
        var json: String?
        var event: String?
        var uri: String?
        var reason: String?
    }

    private static func preview(_ line: Data) -> String {
        let text = String(decoding: line.prefix(120), as: UTF8.self)
        return line.count > 120 ? text + "…" : text
    }
}
