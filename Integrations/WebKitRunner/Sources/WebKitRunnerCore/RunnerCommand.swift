import Foundation

/// One command from the host (a line of the protocol, host -> runner), decoded.
///
/// Why a hand-written decoder: every way a line can be wrong must become an `error` event with a
/// sentence that names the kind and the field, never a crash, so lines are parsed with
/// `JSONSerialization` and each field is checked by hand (`seq` and `id` must be integers, not
/// booleans or fractions; scripts and URIs must be strings).
public enum RunnerCommand: Equatable, Sendable {
    case start(StartCommand)
    /// A delivery: evaluate `probe` (when given), then `script`; report `evaluated`/`evaluateFailed`.
    case evaluate(seq: Int, script: String, probe: String?)
    /// Evaluate `script` and report its result as JSON text.
    case query(id: Int, script: String)
    case load(uri: String)
    case reload
    case destroyView
    case terminateWebProcess
    case quit

    /// The `kind` the command came as.
    public var kind: String {
        switch self {
        case .start: "start"
        case .evaluate: "evaluate"
        case .query: "query"
        case .load: "load"
        case .reload: "reload"
        case .destroyView: "destroyView"
        case .terminateWebProcess: "terminateWebProcess"
        case .quit: "quit"
        }
    }

    /// Decodes one line (without its newline).
    public static func decode<Bytes: Collection>(line: Bytes) -> Result<RunnerCommand, CommandDecodingError>
    where Bytes.Element == UInt8 {
        let data = Data(line)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            return .failure(.init("malformed line (not JSON): \(preview(of: data))"))
        }
        guard let fields = object as? [String: Any] else {
            return .failure(.init("malformed line (not a JSON object): \(preview(of: data))"))
        }
        guard let kind = fields["kind"] as? String else {
            return .failure(.init("malformed line (no \"kind\" string): \(preview(of: data))"))
        }
        let reader = FieldReader(kind: kind, fields: fields)
        do {
            switch kind {
            case "start":
                let handler = try reader.string("handler")
                guard !handler.isEmpty else { throw reader.problem("handler", "a non-empty string") }
                let extraHandlers = try reader.optionalStrings("extraHandlers") ?? []
                if extraHandlers.contains("") { throw reader.problem("extraHandlers", "an array of non-empty strings") }
                return .success(.start(StartCommand(
                    handler: handler,
                    extraHandlers: extraHandlers,
                    userScripts: try reader.optionalStrings("userScripts") ?? [],
                    uri: try reader.string("uri")
                )))
            case "evaluate":
                return .success(.evaluate(
                    seq: try reader.integer("seq"),
                    script: try reader.string("script"),
                    probe: try reader.optionalString("probe")
                ))
            case "query":
                return .success(.query(id: try reader.integer("id"), script: try reader.string("script")))
            case "load":
                return .success(.load(uri: try reader.string("uri")))
            case "reload": return .success(.reload)
            case "destroyView": return .success(.destroyView)
            case "terminateWebProcess": return .success(.terminateWebProcess)
            case "quit": return .success(.quit)
            default:
                return .failure(.init("unknown kind \(quoted(kind))"))
            }
        } catch let problem as CommandDecodingError {
            return .failure(problem)
        } catch {
            return .failure(.init("\(quoted(kind)): \(error)"))
        }
    }

    /// The start of a bad line, for the error text (a bad line can be huge).
    static func preview(of data: Data) -> String {
        let limit = 120
        let text = String(decoding: data.prefix(limit), as: UTF8.self)
        return data.count > limit ? text + "… (\(data.count) bytes)" : text
    }

    static func quoted(_ text: String) -> String {
        "\"" + (text.count > 80 ? String(text.prefix(80)) + "…" : text) + "\""
    }
}

/// `start`: the handler names, the user scripts (in order) and the page to load.
public struct StartCommand: Equatable, Sendable {
    public var handler: String
    public var extraHandlers: [String]
    public var userScripts: [String]
    public var uri: String

    public init(handler: String, extraHandlers: [String] = [], userScripts: [String] = [], uri: String) {
        self.handler = handler
        self.extraHandlers = extraHandlers
        self.userScripts = userScripts
        self.uri = uri
    }

    /// `handler` then `extraHandlers`, without repeats.
    public var allHandlers: [String] {
        var seen: Set<String> = []
        return ([handler] + extraHandlers).filter { seen.insert($0).inserted }
    }
}

/// Why a line is not a command; `text` is what the `error` event says.
public struct CommandDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    public init(_ text: String) { self.text = text }
    public var description: String { text }
}

/// Typed access to a command's fields, with error texts of the form
/// `"evaluate" needs "seq" (an integer)`.
private struct FieldReader {
    let kind: String
    let fields: [String: Any]

    func problem(_ name: String, _ expected: String) -> CommandDecodingError {
        CommandDecodingError("\"\(kind)\" needs \"\(name)\" (\(expected))")
    }

    func string(_ name: String) throws -> String {
        guard let value = fields[name] as? String else { throw problem(name, "a string") }
        return value
    }

    func optionalString(_ name: String) throws -> String? {
        guard let value = fields[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw problem(name, "a string, when present") }
        return text
    }

    func integer(_ name: String) throws -> Int {
        // JSONSerialization gives booleans as NSNumbers too (objCType "c"; on Linux `1 is Bool`
        // holds for a number), and a boolean is not a sequence number.
        guard let value = fields[name], let number = value as? NSNumber,
              String(cString: number.objCType) != "c", let integer = value as? Int else {
            throw problem(name, "an integer")
        }
        _ = number
        return integer
    }

    func optionalStrings(_ name: String) throws -> [String]? {
        guard let value = fields[name], !(value is NSNull) else { return nil }
        guard let array = value as? [Any] else { throw problem(name, "an array of strings, when present") }
        var strings: [String] = []
        for element in array {
            guard let text = element as? String else { throw problem(name, "an array of strings, when present") }
            strings.append(text)
        }
        return strings
    }
}
