import BridgeCore
import Foundation
import InspectorProtocol

/// Rewrites JSON so that a session is fit to attach to a bug report: `bridge-inspector redact`
/// (a recording), and `export --har` by default.
///
/// What it replaces, keeping each value a string that says what was there:
///
/// - **Images and other large base64.** A `data:` URL with `;base64,` (whatever its length), and
///   any run of base64 characters of at least ``Options/minBase64Length`` characters, anywhere in
///   any string (a bare `imageBase64`, or base64 inside malformed text), become a descriptor:
///   `[redacted image/png 1280x808 48213 bytes sha256:9f2c41d07a3be815]`. The type and pixel
///   size are read from the decoded bytes (``ImageHeader``, PNG and JPEG), else the data URL's
///   declared type, else `base64`; a run that does not decode is `[redacted text 300
///   characters sha256:…]`. The hash is SHA-256 of the decoded bytes, cut to its first 16 hex
///   digits (64 bits): equal images give equal descriptors, so two redacted sessions still
///   compare equal, and a chance collision between different images needs about four billion
///   of them. An image's hash says nothing a guesser can use: nobody can enumerate photographs.
/// - **Fields a person names** (``Options/fields``, `--field data.documentNumber`) in every
///   bridge message (an object with a string `correlationId`, a string `type` and an object
///   `payload`), wherever the message sits, become `"[redacted 1]"`, `"[redacted 2]"`, …:
///   one number per distinct value in the whole file, so equal values stay equal. They are
///   deliberately not hashed: a document number or a birth date is short enough to guess, and
///   its hash would give it away. JSON held in a string (a malformed message's raw text) is
///   redacted the same way when it parses; when it does not, a named field's last key is looked
///   for as `"key": value` in the text.
///
/// What it keeps: everything else, correlation ids included (they are random, say nothing
/// about the person, and keep requests threaded with their answers).
///
/// A redactor numbers named values across everything it is given, so use one redactor per
/// file, and read its ``report`` at the end:
///
/// ```swift
/// var redactor = Redactor(options: .init(fields: [try RedactionFieldPath(parsing: "data.documentNumber")]))
/// let shareable = redactor.redactRecording(try Data(contentsOf: url))
/// print(redactor.report.summary)   // "redacted 2 images, 0 other base64 values, 1 named field"
/// ```
public struct Redactor: Sendable {
    /// What to redact beyond images.
    public struct Options: Sendable, Hashable {
        /// The default shortest run of base64 characters that is redacted: 256 characters (192
        /// bytes) is far above any id, hash or token a bridge message carries in text (a SHA-256
        /// in base64 is 44), and far below the smallest real image.
        public static let defaultMinBase64Length = 256
        /// The shortest run of base64 characters redacted outside a `data:` URL (at least 16).
        public var minBase64Length: Int
        /// The fields to replace in every bridge message.
        public var fields: [RedactionFieldPath]

        /// Creates options.
        public init(minBase64Length: Int = Options.defaultMinBase64Length, fields: [RedactionFieldPath] = []) {
            self.minBase64Length = max(16, minBase64Length)
            self.fields = fields
        }
    }

    /// What this redactor was asked to do.
    public let options: Options
    /// What it has replaced so far.
    public internal(set) var report = RedactionReport()
    /// The token number of each named value seen so far.
    private var tokens: [JSONValue: Int] = [:]

    /// How many levels of JSON held in a string (held in a string …) are looked into.
    static let maxStringNesting = 2

    /// Creates a redactor.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// `value` redacted: every string, and the named fields of every bridge message in it.
    public mutating func redact(_ value: JSONValue) -> JSONValue {
        walk(value, stringNesting: 0)
    }

    /// Text that may or may not be JSON (malformed input, a message's text) redacted: JSON is
    /// redacted as a value and written again (keys sorted) when anything changed; other text
    /// has its base64 runs and named fields replaced in place.
    public mutating func redact(text: String) -> String {
        redactString(text, stringNesting: 0)
    }

    /// `value` with its strings redacted and the named fields of its bridge messages replaced;
    /// `stringNesting` counts the strings of JSON it was found in. With `looseMessage` (JSON held
    /// in a string: a malformed message's raw text, meant as a message), a top object with any of
    /// a message's keys counts as a message, so named fields are found in it too.
    mutating func walk(_ value: JSONValue, stringNesting: Int, looseMessage: Bool = false) -> JSONValue {
        switch value {
        case .string(let text):
            return .string(redactString(text, stringNesting: stringNesting))
        case .array(let elements):
            var result: [JSONValue] = []
            result.reserveCapacity(elements.count)
            for element in elements { result.append(walk(element, stringNesting: stringNesting)) }
            return .array(result)
        case .object(let members):
            var named = JSONValue.object(members)
            let loose = looseMessage && (members["correlationId"] != nil || members["type"] != nil || members["payload"] != nil)
            if loose || Self.isBridgeMessage(members) { named = replaceNamedFields(in: named) }
            guard case .object(var result) = named else { return named }
            for key in result.keys.sorted() {
                if let member = result[key] { result[key] = walk(member, stringNesting: stringNesting) }
            }
            return .object(result)
        case .number, .bool, .null:
            return value
        }
    }

    /// Whether an object is a bridge message: a string `correlationId`, a string `type` and an
    /// object `payload`.
    static func isBridgeMessage(_ members: [String: JSONValue]) -> Bool {
        guard case .string? = members["correlationId"], case .string? = members["type"], case .object? = members["payload"] else { return false }
        return true
    }

    /// `message` with each named field replaced, tried at the message and at its payload.
    private mutating func replaceNamedFields(in message: JSONValue) -> JSONValue {
        var result = message
        for path in options.fields {
            result = path.apply(to: result) { token(for: $0) }
            if case .object(var members) = result, let payload = members["payload"] {
                members["payload"] = path.apply(to: payload) { token(for: $0) }
                result = .object(members)
            }
        }
        return result
    }

    /// The token that replaces a named value: the same number for the same value throughout.
    mutating func token(for value: JSONValue) -> JSONValue {
        if case .string(let text) = value, Self.isToken(text) { return value }
        report.namedFields += 1
        let number: Int
        if let known = tokens[value] {
            number = known
        } else {
            number = tokens.count + 1
            tokens[value] = number
        }
        return .string("[redacted \(number)]")
    }

    /// Whether `text` is a token this redactor writes (so a field named twice is counted once).
    static func isToken(_ text: String) -> Bool {
        guard text.hasPrefix("[redacted "), text.hasSuffix("]") else { return false }
        return text.dropFirst("[redacted ".count).dropLast().allSatisfy(\.isNumber)
    }
}
