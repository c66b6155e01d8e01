import BridgeCore
import Foundation
import InspectorClient
import InspectorProtocol

/// The responses a person sent by hand from the respond dialog, remembered per action like a
/// shell's history: newest first, without duplicates, at most ``perAction`` for an action and
/// ``limit`` in all. The respond dialog offers an action's remembered responses on `Ctrl-T`
/// before the built-in templates.
///
/// The interactive inspector keeps them between runs in the state directory (``fileName`` in
/// ``StateDirectory``), through ``InspectorStateStore`` with its rules and event history.
///
/// ```swift
/// var remembered = RememberedResponses()
/// remembered.add(.init(status: .success, data: ["uid": "04A2"]), for: "nfc.read")
/// remembered.responses(for: "nfc.read").first?.data   // ["uid": "04A2"]
/// ```
public struct RememberedResponses: Sendable, Equatable, Codable {
    /// One remembered response and the action it answered.
    public struct Entry: Sendable, Equatable, Codable {
        /// The request's action (`nfc.read`).
        public var action: String
        /// What was sent.
        public var response: ReplyRule.Response

        /// Creates an entry.
        public init(action: String, response: ReplyRule.Response) {
            self.action = action
            self.response = response
        }
    }

    /// The file in the state directory.
    public static let fileName = "responses.json"
    /// How many responses are kept for one action.
    public static let perAction = 10
    /// How many responses are kept in all (the oldest go first).
    public static let limit = 200

    /// Every remembered response, newest first.
    public private(set) var entries: [Entry]

    /// Remembered responses, newest first (bounded and deduplicated as ``add(_:for:)`` does).
    public init(entries: [Entry] = []) {
        self.entries = []
        for entry in entries.reversed() { add(entry.response, for: entry.action) }
    }

    /// The responses remembered for `action`, newest first.
    public func responses(for action: String) -> [ReplyRule.Response] {
        entries.filter { $0.action == action }.map(\.response)
    }

    /// Remembers `response` for `action` as the newest; an equal one already remembered moves
    /// to the front instead of being kept twice.
    public mutating func add(_ response: ReplyRule.Response, for action: String) {
        let entry = Entry(action: action, response: response)
        entries.removeAll { $0 == entry }
        entries.insert(entry, at: 0)
        var kept = 0
        entries.removeAll { candidate in
            guard candidate.action == action else { return false }
            kept += 1
            return kept > Self.perAction
        }
        if entries.count > Self.limit { entries.removeLast(entries.count - Self.limit) }
    }

    // MARK: The file

    /// The file's JSON: `{"version": 1, "responses": [{"action": …, "response": {…}}, …]}`.
    private enum CodingKeys: String, CodingKey {
        case version, responses
    }

    /// The file format this version writes and reads.
    static let formatVersion = 1

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: "version \(version) is not 1")
        }
        self.init(entries: try container.decode([Entry].self, forKey: .responses))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(entries, forKey: .responses)
    }

    /// The respond dialog's templates for these responses (for one action), newest first.
    func templates(for action: String) -> [ResponseFields.Template] {
        responses(for: action).map { response in
            let data = response.data.flatMap { Self.compactJSON($0) } ?? ""
            var summary = response.status.rawValue
            if let code = response.error?.code { summary += " " + code }
            if !data.isEmpty { summary += " " + data }
            return ResponseFields.Template(name: "sent before: " + summary, status: response.status, data: data, error: response.error)
        }
    }

    /// `object` as one line of JSON with sorted keys, written straight from the value.
    static func compactJSON(_ object: [String: JSONValue]) -> String? {
        var writer = JSONWriter()
        writer.value(.object(object))
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
