/// One event for the host (a line of the protocol, runner -> host), and its encoding.
///
/// Why hand-encoded: the fields are few and flat (strings and integers), `kind` comes first so a
/// person reading the stream sees it at once, and the text of a post or a result (possibly many
/// MiB) is escaped in one pass over its UTF-8 bytes. U+2028 and U+2029 are escaped too, so a line
/// can be pasted into JavaScript source safely.
public enum RunnerEvent: Equatable, Sendable {
    case started(webkitVersion: String, display: String)
    case post(handler: String, text: String)
    case postFailed(handler: String, error: String)
    /// `probe` is the probe's result as JSON text ("undefined" for undefined); `probeError` is set
    /// instead when the probe itself threw or its result had no JSON form.
    case evaluated(seq: Int, probe: String? = nil, probeError: String? = nil)
    case evaluateFailed(seq: Int, error: String, probe: String? = nil, probeError: String? = nil)
    case queryResult(id: Int, json: String)
    case queryFailed(id: Int, error: String)
    case load(event: LoadEvent, uri: String)
    case loadFailed(uri: String, error: String)
    case webProcessTerminated(reason: TerminationReason)
    case viewDestroyed
    case error(text: String)
    case fatal(text: String)

    /// WebKitWebView's `load-changed` steps.
    public enum LoadEvent: String, Sendable {
        case started, redirected, committed, finished
    }

    /// WebKitWebView's `web-process-terminated` reasons.
    public enum TerminationReason: String, Sendable {
        case crashed, exceededMemoryLimit, terminatedByAPI
    }

    private enum Value {
        case string(String)
        case integer(Int)
    }

    private var fields: [(String, Value?)] {
        switch self {
        case let .started(version, display):
            [("kind", .string("started")), ("webkitVersion", .string(version)), ("display", .string(display))]
        case let .post(handler, text):
            [("kind", .string("post")), ("handler", .string(handler)), ("text", .string(text))]
        case let .postFailed(handler, error):
            [("kind", .string("postFailed")), ("handler", .string(handler)), ("error", .string(error))]
        case let .evaluated(seq, probe, probeError):
            [("kind", .string("evaluated")), ("seq", .integer(seq)),
             ("probe", probe.map(Value.string)), ("probeError", probeError.map(Value.string))]
        case let .evaluateFailed(seq, error, probe, probeError):
            [("kind", .string("evaluateFailed")), ("seq", .integer(seq)), ("error", .string(error)),
             ("probe", probe.map(Value.string)), ("probeError", probeError.map(Value.string))]
        case let .queryResult(id, json):
            [("kind", .string("queryResult")), ("id", .integer(id)), ("json", .string(json))]
        case let .queryFailed(id, error):
            [("kind", .string("queryFailed")), ("id", .integer(id)), ("error", .string(error))]
        case let .load(event, uri):
            [("kind", .string("load")), ("event", .string(event.rawValue)), ("uri", .string(uri))]
        case let .loadFailed(uri, error):
            [("kind", .string("loadFailed")), ("uri", .string(uri)), ("error", .string(error))]
        case let .webProcessTerminated(reason):
            [("kind", .string("webProcessTerminated")), ("reason", .string(reason.rawValue))]
        case .viewDestroyed:
            [("kind", .string("viewDestroyed"))]
        case let .error(text):
            [("kind", .string("error")), ("text", .string(text))]
        case let .fatal(text):
            [("kind", .string("fatal")), ("text", .string(text))]
        }
    }

    /// The event as one JSON object followed by `\n`, in UTF-8.
    public var encodedLine: [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        var first = true
        for (name, value) in fields {
            guard let value else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            Self.appendJSONString(name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            switch value {
            case let .string(text): Self.appendJSONString(text, to: &bytes)
            case let .integer(number): bytes.append(contentsOf: String(number).utf8)
            }
        }
        bytes.append(contentsOf: "}\n".utf8)
        return bytes
    }

    /// The line as text, without the newline (for tests and logs).
    public var jsonText: String {
        String(decoding: encodedLine.dropLast(), as: UTF8.self)
    }

    static func appendJSONString(_ text: String, to bytes: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.reserveCapacity(bytes.count + text.utf8.count + 2)
        bytes.append(UInt8(ascii: "\""))
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 / E2 80 A9 in UTF-8.
                guard let second = utf8.next() else { bytes.append(byte); break }
                guard second == 0x80, let third = utf8.next() else {
                    bytes.append(contentsOf: [byte, second])
                    break
                }
                if third == 0xA8 {
                    bytes.append(contentsOf: Array("\\u2028".utf8))
                } else if third == 0xA9 {
                    bytes.append(contentsOf: Array("\\u2029".utf8))
                } else {
                    bytes.append(contentsOf: [byte, second, third])
                }
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
